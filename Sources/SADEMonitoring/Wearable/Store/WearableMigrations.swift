import Foundation
import GRDB

/// The schema of the wearable facade: projects (with "No Project", id 0) and data
/// items, which go with their owner's account.
package enum WearableMigrations {
    /// Registers the migrations.
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
        // Accounts may live elsewhere (PostgreSQL, shared by several nodes): an item names
        // its owner's account without a foreign key into this database, and goes with it
        // when the account is deleted through ``WearableFacade/deleteAccount(_:)``.
        migrator.registerMigration("wearable-v2-owner-without-account-key") { db in
            try db.execute(
                sql: """
                    CREATE TABLE wearableDataItem_new (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        ownerID TEXT NOT NULL,
                        heartBpm DOUBLE NOT NULL,
                        gpsCoordinates TEXT,
                        steps INTEGER NOT NULL,
                        distance DOUBLE NOT NULL,
                        temperature DOUBLE NOT NULL,
                        device TEXT,
                        sentDate DOUBLE NOT NULL,
                        sampleIDs TEXT NOT NULL);
                    INSERT INTO wearableDataItem_new SELECT id, ownerID, heartBpm, gpsCoordinates, steps, distance, temperature, device,
                        sentDate, sampleIDs FROM wearableDataItem;
                    DROP TABLE wearableDataItem;
                    ALTER TABLE wearableDataItem_new RENAME TO wearableDataItem;
                    CREATE INDEX wearableDataItem_on_ownerID ON wearableDataItem(ownerID);
                    """)
        }
    }
}
