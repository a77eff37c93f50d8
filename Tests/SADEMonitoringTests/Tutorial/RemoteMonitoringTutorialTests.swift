import Foundation
import SADEACL
import SADECore
import SADEHealth
import SADEHealthSQLite
import SADENotification
import Synchronization
import SADETestTiming
import Testing

// --- Tutorial: the new-data hot spot ---
/// SADE4Health's `DAONewData` hot spot: what is new in the store since the last look.
actor NewVitalSigns {
    let store: any HealthStore & ClinicalRegistry
    private var anchor = HealthAnchor.start

    init(store: any HealthStore & ClinicalRegistry) { self.store = store }

    /// The heart rates saved since the last call, and their patients' records.
    func next() async throws -> AnomaliesAction.Batch {
        let changes = try await store.changes(.quantity(.heartRate), patient: nil, since: anchor, limit: nil, as: .system)
        anchor = changes.anchor
        var patients: [PatientID: Patient] = [:]
        for id in Set(changes.added.map(\.patient)) { patients[id] = try await store.patient(id) }
        return (changes.added, patients)
    }
}

extension BeliefKey where Value == [Anomaly] {
    /// The anomalies the AlertAgent has heard of and not yet announced.
    static let unannounced: BeliefKey<[Anomaly]> = "unannounced"
}

extension Agent {
    /// Takes the unannounced anomalies, leaving none: one step of the agent's own, so
    /// that no message is handled between the reading and the clearing.
    func takeUnannounced() -> [Anomaly] {
        defer { setBelief(.unannounced, to: []) }
        return beliefs[.unannounced] ?? []
    }
}

/// What the ward is told of an anomaly.
func notice(for anomaly: Anomaly) -> Notice {
    Notice(
        recipients: [.email("icu-team@hospital.test")], severity: anomaly.severity >= .alarm ? .alarm : .warning,
        title: "\(anomaly.patient): \(anomaly.kind)", body: anomaly.summary, subject: anomaly.patient.rawValue)
}
// --- end ---

/// Keeps what the tutorial's outbox delivers.
final class WardInbox: NotificationChannel {
    let name = "ward-inbox"
    private let received = Mutex<[Notice]>([])
    func accepts(_ notification: Notice) -> Bool { true }
    func deliver(_ notification: Notice) async throws { received.withLock { $0.append(notification) } }
    var notices: [Notice] { received.withLock { $0 } }
}

@Suite("The DocC tutorial \"Build a remote monitoring app\"", .timeLimit(.minutes(3)), .timed)
struct RemoteMonitoringTutorialTests {
    @Test("the tutorial's agents, as written, turn a racing heart into notices for the ward")
    func tutorialRunsAsWritten() async throws {
        let clock = ManualClock()
        let inbox = WardInbox()
        let channels: [any NotificationChannel] = [inbox]

        // --- Tutorial: the store, the platform and the outbox ---
        let store = try SQLiteHealthStore.inMemory()  // or SQLiteHealthStore(directory: "ward-data")
        try await store.save(Hospital(id: "h1", name: "St. Mary"))
        try await store.save(HospitalSector(id: "icu", hospital: "h1", name: "ICU"))
        try await store.save(Patient(id: "p-7", name: "Ana Lima", sector: "icu", bed: "7"))

        let epoch = Date()  // the platform clock reads zero now
        let platform = Environment(name: "ward", clock: clock)  // Environment(name: "ward") in the app
        let outbox = try NotificationOutbox(directory: nil, channels: channels, clock: OutboxClock(clock: platform.clock, origin: epoch))
        await outbox.start()
        // --- end ---

        // --- Tutorial: the AnomaliesAgent ---
        let newData = NewVitalSigns(store: store)
        let detect = AnomaliesAction(detector: AnomalyDetector(), epoch: epoch, informing: "AlertAgent") { _ in
            try await newData.next()
        }
        let anomaliesAgent = Agent("AnomaliesAgent", on: platform, runBDICycleOnStart: true) {
            Goal("watch the ward") {
                Plan("look at new data every minute") {
                    CyclicAction("collect and detect", every: .seconds(60)) { context in
                        try await detect.runAction(context)
                    }
                }
            }
        }
        // --- end ---

        // --- Tutorial: the AlertAgent ---
        let alertAgent = Agent("AlertAgent", on: platform) {
            Belief(.unannounced, [])
            Goal.maintain("every anomaly announced", .belief(.unannounced, is: [])) {
                Plan("tell the ward") {
                    OneShotAction("announce") { context in
                        for anomaly in await context.agent.takeUnannounced() where anomaly.phase != .resolved {
                            try await outbox.send(notice(for: anomaly))
                        }
                    }
                }
            }
            MessageHandler.on(.inform) { agent, message in
                guard let anomaly = try? Anomaly(message: message) else { return }
                agent.setBelief(.unannounced, to: (agent.beliefs[.unannounced] ?? []) + [anomaly])
            }
        }

        try await alertAgent.start()
        try await anomaliesAgent.start()
        // --- end ---

        var events = await outbox.events().makeAsyncIterator()
        // --- Tutorial: a racing heart ---
        try await store.save(.quantity(.heartRate, 142, patient: "p-7", at: epoch.addingTimeInterval(30)), as: .system)
        // --- end ---
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(60))  // the AnomaliesAgent's next look
        var delivered = 0
        while delivered < 2, let event = await events.next() {
            if case .delivered = event { delivered += 1 }
        }
        // A pulse of 142 is out of its typical range, and scores 3 in NEWS2 (a red flag).
        let notices = inbox.notices
        #expect(Set(notices.map(\.title)) == ["p-7: outOfRange:heartRate", "p-7: news2"])
        #expect(notices.allSatisfy { $0.subject == "p-7" && $0.recipients == [.email("icu-team@hospital.test")] })
        #expect(await alertAgent.beliefs[BeliefKey<[Anomaly]>.unannounced] == [])

        await anomaliesAgent.stop()
        await alertAgent.stop()
        await outbox.stop()
    }
}
