import Foundation
import GRDB
import SADECore
import SADEHealth
@testable import SADEMonitoring
import SADENotification
import Testing

@Suite("The alert book", .timeLimit(.minutes(3)))
struct AlertBookTests {
    /// A book on fresh in-memory databases, and a way to raise alerts into it.
    struct Bench {
        let book: AlertBook
        let outbox: NotificationOutbox
        let events: MonitoringEventHub
        let database: MonitoringDatabase

        init() throws {
            database = try MonitoringDatabase(directory: nil, migrations: [PipelineMigrations.register])
            outbox = try NotificationOutbox(directory: nil, channels: [AppNotificationHub()])
            events = MonitoringEventHub()
            book = try AlertBook(database: database, outbox: outbox, desk: AlertDesk(outbox: outbox), events: events)
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

    @Test("alerts are listed newest first by status and patients; acknowledging moves one from open to acknowledged")
    func listsByStatusAndPatients() async throws {
        let bench = try Bench()
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

    @Test("acknowledging an unknown alert and acknowledging twice are distinct errors")
    func acknowledgementErrors() async throws {
        let bench = try Bench()
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

    @Test("a new book on the same database knows each worker's open alerts")
    func loadsSurviveReopening() async throws {
        let bench = try Bench()
        _ = try await bench.raise("p-1", to: "amy", at: 0)
        _ = try await bench.raise("p-2", to: "amy", at: 1)
        let reopened = try AlertBook(database: bench.database, outbox: bench.outbox, desk: bench.book.desk, events: bench.events)
        #expect(reopened.openAlertCount(assignee: "amy") == 2)
        #expect(reopened.openAlertCount(assignee: "bea") == 0)
    }
}
