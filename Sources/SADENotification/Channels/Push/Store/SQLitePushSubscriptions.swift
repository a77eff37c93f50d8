import Foundation
import GRDB

/// Push subscriptions in the outbox's SQLite database (table `pushSubscription`, made
/// by the outbox's migrations).
package struct SQLitePushSubscriptions: PushSubscriptionRecords {
    let writer: any DatabaseWriter

    package init(writer: any DatabaseWriter) {
        self.writer = writer
    }

    package func save(_ subscription: WebPushSubscription) async throws {
        try await writer.write { db in
            try db.execute(
                sql: """
                    INSERT INTO pushSubscription (id, account, endpoint, p256dh, auth, device, createdAt) VALUES (?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (id) DO UPDATE SET account = excluded.account, endpoint = excluded.endpoint, p256dh = excluded.p256dh,
                        auth = excluded.auth, device = excluded.device, createdAt = excluded.createdAt
                    """,
                arguments: [
                    subscription.id, subscription.account, subscription.endpoint, Base64URL.encode(subscription.keys.p256dh),
                    Base64URL.encode(subscription.keys.auth), subscription.device, subscription.createdAt.timeIntervalSince1970,
                ])
        }
    }

    package func subscriptions(of account: String) async throws -> [WebPushSubscription] {
        try await writer.read { db in
            try Row.fetchAll(db, sql: Self.select + " WHERE account = ? ORDER BY createdAt, id", arguments: [account]).map(Self.subscription)
        }
    }

    package func subscription(id: String) async throws -> WebPushSubscription? {
        try await writer.read { db in try Row.fetchOne(db, sql: Self.select + " WHERE id = ?", arguments: [id]).map(Self.subscription) }
    }

    private static let select = "SELECT account, endpoint, p256dh, auth, device, createdAt FROM pushSubscription"

    private static func subscription(_ row: Row) throws -> WebPushSubscription {
        WebPushSubscription(
            account: row["account"], endpoint: row["endpoint"], keys: try WebPushSubscription.Keys(p256dh: row["p256dh"], auth: row["auth"]),
            device: row["device"], createdAt: Date(timeIntervalSince1970: row["createdAt"]))
    }

    @discardableResult
    package func remove(id: String) async throws -> Bool {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM pushSubscription WHERE id = ?", arguments: [id])
            return db.changesCount > 0
        }
    }

    @discardableResult
    package func removeAll(of account: String) async throws -> Int {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM pushSubscription WHERE account = ?", arguments: [account])
            return db.changesCount
        }
    }

    /// The table, a migration of the outbox's database.
    static func createTable(_ db: Database) throws {
        try db.create(table: "pushSubscription") { table in
            table.primaryKey("id", .text)
            table.column("account", .text).notNull().indexed()
            table.column("endpoint", .text).notNull()
            table.column("p256dh", .text).notNull()
            table.column("auth", .text).notNull()
            table.column("device", .text).notNull()
            table.column("createdAt", .double).notNull()
        }
    }
}
