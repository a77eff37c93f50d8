import Foundation
import GRDB

/// The outbox's SQLite database: notifications, one delivery per channel, every
/// attempt, and escalation steps; schema by named migrations.
struct OutboxDatabase: Sendable {
    let writer: any DatabaseWriter

    /// Opens (creating if needed) `<directory>/notifications.sqlite` in WAL mode, or an
    /// in-memory database when `directory` is `nil`.
    init(directory: String?) throws {
        if let directory {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            writer = try DatabasePool(path: (directory as NSString).appendingPathComponent("notifications.sqlite"))
        } else {
            writer = try DatabaseQueue()
        }
        try Self.migrator.migrate(writer)
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-outbox") { db in
            try db.create(table: "notification") { table in
                table.primaryKey("id", .text)
                table.column("payload", .text).notNull()
                table.column("severity", .text).notNull()
                table.column("createdAt", .double).notNull()
                table.column("deduplicationKey", .text).indexed()
                table.column("acknowledgedBy", .text)
                table.column("acknowledgedAt", .double)
            }
            try db.create(table: "delivery") { table in
                table.column("notificationID", .text).notNull().references("notification", onDelete: .cascade)
                table.column("channel", .text).notNull()
                table.column("status", .text).notNull()
                table.column("attempts", .integer).notNull().defaults(to: 0)
                table.column("nextAttemptAt", .double).notNull()
                table.column("lastError", .text)
                table.column("deliveredAt", .double)
                table.primaryKey(["notificationID", "channel"])
            }
            try db.create(index: "delivery_due", on: "delivery", columns: ["status", "nextAttemptAt"])
            try db.create(table: "attempt") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("notificationID", .text).notNull().indexed().references("notification", onDelete: .cascade)
                table.column("channel", .text).notNull()
                table.column("at", .double).notNull()
                table.column("succeeded", .boolean).notNull()
                table.column("error", .text)
            }
            try db.create(table: "escalation") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("alertID", .text).notNull().indexed().references("notification", onDelete: .cascade)
                table.column("step", .integer).notNull()
                table.column("at", .double).notNull()
                table.column("notificationID", .text).notNull()
                table.column("recipients", .text).notNull()
            }
        }
        migrator.registerMigration("v2-escalation-policies") { db in
            try db.create(table: "escalationPolicy") { table in
                table.primaryKey("alertID", .text).references("notification", onDelete: .cascade)
                table.column("policy", .text).notNull()
                table.column("raisedAt", .double).notNull()
            }
        }
        return migrator
    }
}
