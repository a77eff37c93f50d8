import GRDB

/// The monitoring pipeline's tables in the monitoring database, built by named
/// migrations: how far the collector has evaluated the health store (one anchor per
/// shard of patients and sample type), and the alerts raised with their assignee and acknowledgement.
package enum PipelineMigrations {
    /// Registers the pipeline's migrations; the monitoring database calls this once
    /// with its migrator, tests with their own.
    package static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v1-pipeline") { db in
            try db.create(table: "pipeline_anchor") { table in
                table.primaryKey("type", .text)
                table.column("anchor", .integer).notNull()
            }
            try db.create(table: "pipeline_alert") { table in
                table.primaryKey("id", .text)
                table.column("patient", .text).notNull().indexed()
                table.column("sector", .text)
                table.column("category", .text).notNull()
                table.column("severity", .text).notNull()
                table.column("title", .text).notNull()
                table.column("message", .text).notNull()
                table.column("raisedAt", .double).notNull()
                table.column("assignee", .text).indexed()
                table.column("acknowledgedBy", .text)
                table.column("acknowledgedAt", .double)
                table.column("episodeOpen", .boolean).notNull().defaults(to: true)
                table.column("escalationSteps", .integer).notNull().defaults(to: 0)
            }
        }
        // Anchors per shard of patients (``PatientShards``), as on PostgreSQL; a node of
        // its own holds every shard. pipeline_anchor stays where new shards start.
        migrator.registerMigration("v2-shard-anchors") { db in
            try db.create(table: "pipeline_shard_anchor") { table in
                table.column("shard", .integer).notNull()
                table.column("type", .text).notNull()
                table.column("anchor", .integer).notNull()
                table.primaryKey(["shard", "type"])
            }
        }
    }
}
