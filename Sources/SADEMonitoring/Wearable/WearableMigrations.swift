import Foundation
import GRDB

/// The schema of the wearable facade: projects (with "No Project", id 0) and data
/// items, which go with their owner's account.
package enum WearableMigrations {
    /// Registers the migrations; they need the `account` table (``AccountMigrations``).
    @Sendable package static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("wearable-v1") { db in
            try db.create(table: "wearableProject") { table in
                table.primaryKey("id", .integer)
                table.column("name", .text).notNull()
                table.column("description", .text)
                table.column("adminID", .text)
                table.column("startTime", .double).notNull()
            }
            try db.execute(
                sql: "INSERT INTO wearableProject (id, name, description, startTime) VALUES (?, 'No Project', ?, ?)",
                arguments: [WearableProject.noProjectID, "Where every user is until an admin assigns them", Date().timeIntervalSince1970])
            try db.create(table: "wearableDataItem") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("ownerID", .text).notNull().indexed().references("account", onDelete: .cascade)
                table.column("heartBpm", .double).notNull()
                table.column("gpsCoordinates", .text)
                table.column("steps", .integer).notNull()
                table.column("distance", .double).notNull()
                table.column("temperature", .double).notNull()
                table.column("device", .text)
                table.column("sentDate", .double).notNull()
                table.column("sampleIDs", .text).notNull()
            }
        }
    }
}
