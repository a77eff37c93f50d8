import Foundation
import GRDB

/// The monitoring application's own SQLite database (`monitoring.sqlite`): accounts,
/// device tokens, the pipeline's bookkeeping and the wearable facade's data. Health
/// samples live in the health store's database, notifications in the outbox's.
public struct MonitoringDatabase: Sendable {
    /// Adds a slice's migrations to the migrator.
    public typealias Migrations = @Sendable (inout DatabaseMigrator) -> Void

    /// The file name inside the data directory.
    public static let fileName = "monitoring.sqlite"

    /// Reads and writes the database.
    public let writer: any DatabaseWriter

    /// Opens (creating if needed) `<directory>/monitoring.sqlite` in WAL mode, or an
    /// in-memory database when `directory` is `nil`, and applies `migrations` in order.
    public init(directory: String?, migrations: [Migrations]) throws(MonitoringError) {
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
