import Foundation
import GRDB
import SADECore
import SADEHealth
@testable import SADEMonitoring
import SADENotification
import SADEPostgres
import SADETestSupport
import SADETestTiming
import Testing

@Suite("The alert book", .timeLimit(.minutes(3)), .timed)
struct AlertBookTests {
    /// Where the book keeps its alerts.
    enum Backend: String, CaseIterable, CustomTestStringConvertible {
        case sqlite, postgres
        var testDescription: String { rawValue }
    }

    /// A book on fresh in-memory databases, and a way to raise alerts into it.
    struct Bench {
        let book: AlertBook
        let outbox: NotificationOutbox
        let events: MonitoringEventHub
        let records: any PipelineRecords

        init(_ backend: Backend) async throws {
            events = MonitoringEventHub()
            switch backend {
            case .sqlite:
                records = SQLitePipelineRecords(try MonitoringDatabase(directory: nil, migrations: [PipelineMigrations.register]))
                outbox = try NotificationOutbox(directory: nil, channels: [AppNotificationHub()])
            case .postgres:
                let pool = try await PostgresPool.connect(
                    PostgresLocation(url: PostgresTestServer.makeDatabase()), maximumConnections: 4, timeout: .seconds(30))
                records = try await PostgresPipelineRecords(pool)
                outbox = try await NotificationOutbox(postgres: pool, channels: [AppNotificationHub()])
            }
            book = AlertBook(records: records, outbox: outbox, desk: AlertDesk(outbox: outbox), events: events)
        }

        func raise(_ patient: PatientID, to assignee: StaffID?, at offset: TimeInterval) async throws -> AlertRecord {
            let notice = try await book.desk.raise(
                Notice(recipients: assignee.map { [.user($0)] } ?? [], severity: .alarm, title: "t", body: "b", subject: patient.rawValue),
                policy: EscalationPolicy([]))
            let record = AlertRecord(
                id: notice.id, patient: patient, sector: "icu", category: .clinical, severity: .alarm, title: "t", message: "b",
                raisedAt: Date(timeIntervalSince1970: 1_800_000_000 + offset), assignee: assignee)
            try await book.record(record)
            return record
        }
    }

    @Test("alerts are listed newest first by status and patients; acknowledging moves one from open to acknowledged", arguments: Backend.allCases)
    func listsByStatusAndPatients(_ backend: Backend) async throws {
        let bench = try await Bench(backend)
        let first = try await bench.raise("p-1", to: "amy", at: 0)
        let second = try await bench.raise("p-2", to: "amy", at: 10)
        let third = try await bench.raise("p-1", to: nil, at: 20)
        #expect(bench.book.openAlertCount(assignee: "amy") == 2)
        #expect(try await bench.book.alerts().map(\.id) == [third.id, second.id, first.id])
        #expect(try await bench.book.alerts(patients: ["p-1"]).map(\.id) == [third.id, first.id])
        #expect(try await bench.book.alerts(patients: []).isEmpty)

        var events = bench.events.subscribe().makeAsyncIterator()
        let acknowledged = try await bench.book.acknowledge(first.id, by: "amy")
        #expect(acknowledged.acknowledgedBy == "amy" && acknowledged.acknowledgedAt != nil && !acknowledged.isOpen)
        #expect(await events.next() == .acknowledged(acknowledged))
        #expect(bench.book.openAlertCount(assignee: "amy") == 1)
        #expect(try await bench.book.alerts(status: .open).map(\.id) == [third.id, second.id])
        #expect(try await bench.book.alerts(status: .acknowledged).map(\.id) == [first.id])
        #expect(try await bench.book.alerts(status: .open, patients: ["p-2", "p-9"]).map(\.id) == [second.id])
        #expect(try await bench.book.openAlertCounts() == ["p-1": 1, "p-2": 1])
        #expect(try await bench.book.openAlertCounts(patients: ["p-2", "p-9"]) == ["p-2": 1])
    }

    @Test("acknowledging an unknown alert and acknowledging twice are distinct errors", arguments: Backend.allCases)
    func acknowledgementErrors(_ backend: Backend) async throws {
        let bench = try await Bench(backend)
        let alert = try await bench.raise("p-1", to: "amy", at: 0)
        let unknown = UUID()
        await #expect(throws: AlertBookError.unknownAlert(unknown)) { try await bench.book.acknowledge(unknown, by: "amy") }
        try await bench.book.acknowledge(alert.id, by: "amy")
        do {
            try await bench.book.acknowledge(alert.id, by: "bea")
            Issue.record("a second acknowledgement was accepted")
        } catch {
            guard case .alreadyAcknowledged(let record) = error else { throw error }
            #expect(record.acknowledgedBy == "amy")
        }
        #expect(try await bench.outbox.acknowledgement(of: alert.id)?.worker == "amy")
    }

    @Test("a new book on the same database knows each worker's open alerts", arguments: Backend.allCases)
    func loadsSurviveReopening(_ backend: Backend) async throws {
        let bench = try await Bench(backend)
        _ = try await bench.raise("p-1", to: "amy", at: 0)
        _ = try await bench.raise("p-2", to: "amy", at: 1)
        let reopened = AlertBook(records: bench.records, outbox: bench.outbox, desk: bench.book.desk, events: bench.events)
        #expect(reopened.openAlertCount(assignee: "amy") == 0, "not read yet")
        try await reopened.refreshLoads()
        #expect(reopened.openAlertCount(assignee: "amy") == 2)
        #expect(reopened.openAlertCount(assignee: "bea") == 0)
    }

    @Test("anchors only move forward, per shard of patients and type; a shard never evaluated starts from the start", arguments: Backend.allCases)
    func anchorsMoveForward(_ backend: Backend) async throws {
        let records = try await Bench(backend).records
        let fresh = try await records.anchors(of: .all)
        #expect(fresh.keys.sorted() == PatientShards.all.members && fresh.values.allSatisfy { $0.isEmpty })
        try await records.advanceAnchors(of: PatientShards([0, 1]), to: ["HeartRate": HealthAnchor(rawValue: 40), "StepCount": HealthAnchor(rawValue: 7)])
        try await records.advanceAnchors(of: PatientShards([1, 2]), to: ["HeartRate": HealthAnchor(rawValue: 12), "StepCount": HealthAnchor(rawValue: 9)])
        let anchors = try await records.anchors(of: PatientShards([0, 1, 2, 3]))
        #expect(anchors[0] == ["HeartRate": HealthAnchor(rawValue: 40), "StepCount": HealthAnchor(rawValue: 7)])
        #expect(anchors[1] == ["HeartRate": HealthAnchor(rawValue: 40), "StepCount": HealthAnchor(rawValue: 9)])
        #expect(anchors[2] == ["HeartRate": HealthAnchor(rawValue: 12), "StepCount": HealthAnchor(rawValue: 9)])
        #expect(anchors[3] == [:])
        #expect(anchors.count == 4)
    }

    @Test("an episode's open alert is found until the episode closes or the alert is acknowledged; escalation steps are claimed once", arguments: Backend.allCases)
    func episodesAndEscalationClaims(_ backend: Backend) async throws {
        let bench = try await Bench(backend)
        let first = try await bench.raise("p-1", to: "amy", at: 0)
        #expect(try await bench.book.openEpisodeAlert(of: "p-1", category: .clinical) == first.id)
        #expect(try await bench.book.openEpisodeAlert(of: "p-1", category: .device) == nil)
        try await bench.book.closeEpisode(of: first.id)
        #expect(try await bench.book.openEpisodeAlert(of: "p-1", category: .clinical) == nil)
        let second = try await bench.raise("p-1", to: "amy", at: 5)
        #expect(try await bench.book.openEpisodeAlert(of: "p-1", category: .clinical) == second.id)
        try await bench.book.acknowledge(second.id, by: "amy")
        #expect(try await bench.book.openEpisodeAlert(of: "p-1", category: .clinical) == nil)
        #expect(try await !bench.records.insert(first), "recorded once")
        #expect(try await bench.records.claimEscalationSteps(of: first.id, from: 0, to: 2))
        #expect(try await !bench.records.claimEscalationSteps(of: first.id, from: 0, to: 2), "another look claimed them first")
        #expect(try await bench.records.unacknowledged().map(\.escalationSteps) == [2])
    }
}
