import Foundation
import SADEHealth
import SADEHome

/// The smart homes of `sade serve --demo`: two flats of older people living alone, each
/// a resident in the clinical registry with 30 days of sensor history, and live
/// simulated events from then on. Ana is doing well; Joseph's morning goes quiet on
/// the demo's second day, and his home agent raises the alarm.
public enum DemoHomes {
    /// A demo flat: its resident, carers and routine's seed.
    public struct DemoFlat: Sendable {
        /// The resident's registry record.
        public let resident: Patient
        /// The flat's name.
        public let name: String
        /// The carers' usernames (demo staff).
        public let carers: [String]
        /// The routine's seed.
        public let seed: UInt64
        /// Whether the resident's mornings go quiet from the demo's second day.
        public let quietFromSecondDay: Bool
    }

    /// Ana's flat (nurse1, nurse2) and Joseph's (nurse1, nurse3).
    public static let flats: [DemoFlat] = [
        DemoFlat(
            resident: Patient(id: "resident-01", name: "Ana Ferreira", dateOfBirth: birth(1941), sex: .female),
            name: "Ana's flat", carers: ["nurse1", "nurse2"], seed: 41, quietFromSecondDay: false),
        DemoFlat(
            resident: Patient(id: "resident-02", name: "Joseph Brown", dateOfBirth: birth(1938), sex: .male),
            name: "Joseph's flat", carers: ["nurse1", "nurse3"], seed: 38, quietFromSecondDay: true),
    ]

    /// How many days of history a freshly seeded demo flat has.
    public static let historyDays = 30

    /// Seeds the demo flats unless the home store has flats already: residents, flats,
    /// and ``historyDays`` of events up to now. Returns whether it seeded.
    @discardableResult
    public static func seed(_ system: MonitoringSystem) async throws -> Bool {
        guard try await system.homeStore.flats().isEmpty else { return false }
        let now = system.now()
        for demo in flats {
            try await system.health.save(demo.resident)
            var plan = FlatPlan.demoFlat(name: demo.name, resident: demo.resident.id, carers: demo.carers)
            plan.inactivity = InactivityRules(continuousPeriod: .seconds(12 * 3600), windows: [ActivityWindow(startMinute: 7 * 60, endMinute: 10 * 60)])
            let flat = try await system.homeStore.createFlat(plan)
            try await HomeSimulation.seedHistory(
                store: system.homeStore, flat: flat, routine: routine(demo, flat: flat, now: now),
                from: now.addingTimeInterval(-Double(historyDays) * 86_400), to: now)
        }
        return true
    }

    /// Starts the live part: every 15 seconds each demo flat's routine events up to now
    /// go through the home service (so the agents perceive them), and a simulated
    /// gateway carries out actuator commands. Runs until the system shuts down.
    public static func startLive(_ system: MonitoringSystem, every interval: Duration = .seconds(15)) async throws {
        let start = system.now()
        var routines: [(FlatID, ResidentRoutine)] = []
        for flat in try await system.homeStore.flats() {
            guard let demo = flats.first(where: { $0.resident.id == flat.resident }) else { continue }
            routines.append((flat.id, routine(demo, flat: flat, now: start)))
        }
        let live = routines
        system.keep(Task {
            var from = start
            while !Task.isCancelled {
                guard (try? await system.platform.clock.sleep(for: interval)) != nil else { return }
                let to = system.now()
                defer { from = to }
                guard system.runsSingletons else { continue }  // with several nodes, the one running the singletons simulates the homes
                for (flat, routine) in live {
                    let events = routine.events(from: from, to: to)
                    if !events.isEmpty { _ = try? await system.home.ingest(events, flat: flat) }
                }
            }
        })
        system.keep(Task { await SimulatedGateway(home: system.home, when: { system.runsSingletons }).run() })
    }

    /// The flat's routine: Joseph's goes quiet from the morning after the demo's first day.
    static func routine(_ demo: DemoFlat, flat: Flat, now: Date) -> ResidentRoutine {
        let secondDay = flat.calendar.startOfDay(for: now).addingTimeInterval(86_400)
        return ResidentRoutine(flat: flat, seed: demo.seed, quietMorningAfter: demo.quietFromSecondDay ? secondDay : nil)
    }

    private static func birth(_ year: Int) -> Date {
        Date(timeIntervalSince1970: Double(year - 1970) * 365.25 * 86_400)
    }
}
