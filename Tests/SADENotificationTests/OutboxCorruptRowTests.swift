import Foundation
import GRDB
@testable import SADENotification
import SADETestTiming
import Testing

@Suite("Outbox rows that cannot be read", .timeLimit(.minutes(5)), .timed)
struct OutboxCorruptRowTests {
    @Test("a delivery row whose notification id is not one is a typed error naming table, column and value, not a crash")
    func corruptNotificationID() async throws {
        let (_, time) = manualTime()
        let outbox = try NotificationOutbox(directory: nil, channels: [SwitchableChannel()], clock: time)
        let notice = try await outbox.send(Notice(recipients: [.user("nurse1")], severity: .alarm, title: "t", body: "b"))
        #expect(try await outbox.deliveries(of: notice.id).count == 1)
        let store = try #require(outbox.store as? SQLiteOutboxStore)
        try await store.writer.writeWithoutTransaction { db in  // as a damaged file or a hand edit would leave it
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            try db.execute(sql: "UPDATE delivery SET notificationID = 'not-a-uuid', status = 'dead'")
            try db.execute(sql: "PRAGMA foreign_keys = ON")
        }
        await #expect(throws: NotificationError.corruptRow(table: "delivery", column: "notificationID", value: "not-a-uuid")) {
            try await outbox.deadLetters()
        }
        #expect(NotificationError.corruptRow(table: "delivery", column: "notificationID", value: "x").description.contains("delivery"))
    }
}
