import Foundation
@testable import SADEHome
import SADEHomeSQLite
import SADETestTiming
import Testing

/// Two real homes (the Ordóñez data set, committed under Tests/Data/ordonez) imported as
/// `sade home import --format ordonez` does, and judged as `sade home evaluate` does: the
/// figures must be those DETECTION.md states, row for row.
@Suite("Real homes: the Ordóñez data set imported and the detectors judged on it", .timeLimit(.minutes(5)), .timed)
struct RealHomeTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let data = repository.appendingPathComponent("Tests/Data/ordonez")

    static func text(_ name: String) throws -> String { try String(contentsOf: data.appendingPathComponent(name), encoding: .utf8) }

    /// The home imported into a fresh store, and its activations as the store gives them back.
    static func imported(_ home: String) async throws -> (flat: Flat, events: [ActivityEvent], annotations: [String: [DateInterval]]) {
        let set = try OrdonezReader.read(sensors: try text("Ordonez\(home)_Sensors.txt"), name: "Ordóñez \(home)")
        let store = try SQLiteHomeStore(path: nil)
        let flat = try await store.createFlat(set.plan)
        let summary = try await CASASImport(store: store, map: set.map).run(lines: set.lines, flat: flat.id)
        #expect(summary.events == set.lines.count)
        let stored = try await store.flat(flat.id)
        let events = ActivityEvent.activations(try await store.activity(flat: flat.id, from: .distantPast, to: .distantFuture), in: stored)
        let annotations = try OrdonezReader.annotations(try text("Ordonez\(home)_ADLs.txt"), calendar: stored.calendar)
        return (stored, events, annotations.episodes)
    }

    @Test("the sensor files read as the authors wrote them: rooms from the places, every interval on and off, the entrance door the way out")
    func reading() throws {
        let a = try OrdonezReader.read(sensors: try Self.text("OrdonezA_Sensors.txt"), name: "A")
        #expect(a.plan.rooms.map(\.name) == ["Entrance", "Kitchen", "Living", "Bedroom", "Bathroom"])
        #expect(a.lines.count == 2 * 408)
        #expect(a.map.sensors["Maindoor"] == CASASDeviceMap.Sensor(kind: "contact", room: "Entrance"))
        #expect(a.map.sensors["Seat"] == CASASDeviceMap.Sensor(kind: "occupancy", room: "Living"))
        let b = try OrdonezReader.read(sensors: try Self.text("OrdonezB_Sensors.txt"), name: "B")
        #expect(Set(["Door_Bedroom", "Door_Kitchen", "Door_Living"]).isSubset(of: b.map.sensors.keys), "one location in three places is three sensors")
        #expect(b.plan.timeZone == "Europe/Madrid")
        let annotations = try OrdonezReader.annotations(try Self.text("OrdonezA_ADLs.txt"), calendar: HomeDataSet.calendar("Europe/Madrid"))
        #expect(annotations.skipped.count == 3, "the rows that end before they start are named: \(annotations.skipped)")
        #expect(annotations.episodes["Sleeping"]?.count == 14)
    }

    @Test("""
        the home agent's profile of Ordóñez B uses the learned quiet only once it has passed its trial on her own days: not after her \
        first week, yes after two
        """)
    func profileTrial() async throws {
        let set = try OrdonezReader.read(sensors: try Self.text("OrdonezB_Sensors.txt"), name: "Ordóñez B")
        let store = try SQLiteHomeStore(path: nil)
        let created = try await store.createFlat(set.plan)
        _ = try await CASASImport(store: store, map: set.map).run(lines: set.lines, flat: created.id)
        let flat = try await store.flat(created.id)
        let profile = ActivityProfile(store: store)
        let noon = { (day: Int) in try #require(flat.calendar.date(from: DateComponents(year: 2012, month: 11, day: day, hour: 12))) }

        let week = try await profile.detectors(for: flat, at: try noon(19))  // 11–18 November behind her
        #expect(week.routine != nil && week.silence == nil)
        let told = try #require(await profile.takeFreshTrial())
        #expect(!told.isPassed && told.summary().hasPrefix("What the home learned of the resident's quiets is not used yet: it is first tried on a week of their days"), "\(told.summary())")
        #expect(await profile.takeFreshTrial() == nil, "taken once")

        let fortnight = try await profile.detectors(for: flat, at: try noon(26))
        let silence = try #require(fortnight.silence)
        #expect(silence.isTrained)
        let passed = try #require(await profile.takeFreshTrial())
        #expect(passed.isPassed && passed.summary().hasPrefix("The resident's own quiets are watched from now on"), "\(passed.summary())")
    }

    @Test("a bad line is named and nothing is read")
    func badLine() throws {
        let text = "Start time\tEnd time\tLocation\tType\tPlace\n2011-11-28 02:27:59\t2011-11-28 10:18:11\tBed\tPressure\tBedroom\n2011-11-28 10:21:24\t2011-11-28 10:21:31\tCabinet\tLaser\tBathroom\n"
        #expect(throws: CASASError.badLine(line: 3, reason: "sensor type \"Laser\" is none of Electric, Flush, Magnetic, PIR, Pressure")) {
            try OrdonezReader.read(sensors: text, name: "bad")
        }
        #expect(throws: CASASError.badLine(line: 2, reason: "\"2011-13-28 02:27:59\" is not a time (YYYY-MM-DD HH:MM:SS)")) {
            try OrdonezReader.read(sensors: "Start time\n2011-13-28 02:27:59\t2011-11-28 10:18:11\tBed\tPressure\tBedroom\n", name: "bad")
        }
    }

    @Test("learned on 7 and 14 days and judged on the rest with 100 emergencies cut in, each home's figures are DETECTION.md's", arguments: ["A", "B"])
    func figures(home: String) async throws {
        let (flat, events, annotations) = try await Self.imported(home)
        let documented = try String(contentsOf: Self.repository.appendingPathComponent("DETECTION.md"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        // Ordóñez A has 14 days: after 14 nothing is left to judge.
        let trainings = home == "A" ? [7] : [7, 14, 21]
        var computed: [String] = []
        for training in trainings {
            let report = RealHomeEvaluation(events: events, calendar: flat.calendar, trainingDays: training, injections: 100, seed: 1, annotations: annotations).run()
            #expect(report.judgedDays > 0 && report.injected == 100)
            // After one week the learned quiet cries wolf on its own history and is not used; after two weeks of B it passes.
            #expect(report.trial.isPassed == (training >= 14), "\(report.trial.alarms.count) alarms in \(report.trial.days) days")
            computed += report.markdownRows(home: flat.name)
        }
        #expect(computed.count == 5 * trainings.count)
        for row in computed { #expect(documented.contains(row), "DETECTION.md lacks: \(row)") }
        // Both ways: every row DETECTION.md gives for these trainings is one computed.
        let prefixes = trainings.map { "| \(flat.name) | \($0) d |" }
        for row in documented where prefixes.contains(where: row.hasPrefix) { #expect(computed.contains(row), "DETECTION.md states what the code does not compute: \(row)") }
    }
}
