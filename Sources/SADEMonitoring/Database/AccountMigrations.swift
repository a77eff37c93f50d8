import GRDB

/// The schema of accounts and device tokens.
package enum AccountMigrations {
    /// Registers the migrations.
    @Sendable package static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("accounts-v1") { db in
            try db.create(table: "account") { table in
                table.primaryKey("id", .text)
                table.column("username", .text).notNull().unique().collate(.nocase)
                table.column("name", .text).notNull()
                table.column("role", .text).notNull()
                table.column("email", .text)
                table.column("staffID", .text)
                table.column("patientID", .text)
                table.column("projectID", .integer).notNull().defaults(to: 0)
                table.column("location", .text)
                table.column("createdAt", .double).notNull()
                table.column("passwordHash", .text).notNull()
            }
            try db.create(table: "deviceToken") { table in
                table.primaryKey("id", .text)
                table.column("secretHash", .text).notNull().unique()
                table.column("patientID", .text).notNull().indexed()
                table.column("label", .text).notNull()
                table.column("createdAt", .double).notNull()
                table.column("revokedAt", .double)
            }
        }
        migrator.registerMigration("accounts-v2-credentials-changed") { db in
            try db.alter(table: "account") { table in table.add(column: "credentialsChangedAt", .double) }
        }
        migrator.registerMigration("accounts-v3-relatives") { db in
            try db.alter(table: "account") { table in table.add(column: "relativeOf", .text) }
        }
    }
}
