import Foundation
import GRDB

/// The monitoring application's own SQLite database (`monitoring.sqlite`): accounts,
/// device tokens, the pipeline's bookkeeping and the wearable facade's data. Health
/// samples live in the health store's database, notifications in the outbox's.
public struct MonitoringDatabase: Sendable {
    /// Adds a slice's migrations to the migrator.
    package typealias Migrations = @Sendable (inout DatabaseMigrator) -> Void

    /// Every slice's migrations, in order.
    package static let allMigrations: [Migrations] = [
        AccountMigrations.register, PipelineMigrations.register, WearableMigrations.register,
    ]

    /// The file name inside the data directory.
    public static let fileName = "monitoring.sqlite"

    /// Reads and writes the database (GRDB stays inside the package: no public API
    /// names its types, so that another backend can stand in).
    package let writer: any DatabaseWriter

    /// Opens (creating if needed) `<directory>/monitoring.sqlite` in WAL mode, or an
    /// in-memory database when `directory` is `nil`, with every slice's schema.
    public init(directory: String?) throws(MonitoringError) {
        try self.init(directory: directory, migrations: Self.allMigrations)
    }

    /// Opens the database with only `migrations` applied, in order (tests of one slice).
    package init(directory: String?, migrations: [Migrations]) throws(MonitoringError) {
        do {
            if let directory {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                writer = try DatabasePool(path: (directory as NSString).appendingPathComponent(Self.fileName))
            } else {
                writer = try DatabaseQueue()
            }
            var migrator = DatabaseMigrator()
            for register in migrations { register(&migrator) }
            try migrator.migrate(writer)
        } catch {
            throw .storage("cannot open the monitoring database: \(error)")
        }
    }
}
