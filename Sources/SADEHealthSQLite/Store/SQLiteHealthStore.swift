import Foundation
import GRDB
import SADEHealth

/// The health store and clinical registry on one SQLite database (GRDB).
///
/// The embedded default is a file, `<directory>/health.sqlite`, opened as a WAL-mode
/// `DatabasePool` so reads run beside a write; ``inMemory()`` gives a private store
/// for tests. The schema is built by named migrations (`v1-samples`, `v1-clinical`,
/// `v1-authorization`), so reopening a file runs only what it has not seen.
///
/// ```swift
/// let store = try SQLiteHealthStore(directory: "./sade-data")
/// try await store.save(.quantity(.heartRate, 72, patient: "p-1", at: .now), as: .system)
/// ```
public final class SQLiteHealthStore: HealthStore, ClinicalRegistry {
    /// The database; a pool for a file, a queue in memory.
    let database: any DatabaseWriter
    /// The live streams of ``observe(_:patient:as:)``.
    let observers = SampleObservers()

    /// The file name inside the data directory.
    public static let fileName = "health.sqlite"

    /// Opens (creating it and `directory` if needed) `<directory>/health.sqlite`.
    ///
    /// - Throws: ``HealthError/storage(_:)`` when the directory cannot be made or the
    ///   file cannot be opened or migrated.
    public convenience init(directory: String) throws(HealthError) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw .storage("cannot create the data directory \(directory): \(error.localizedDescription)")
        }
        let path = URL(fileURLWithPath: directory).appendingPathComponent(Self.fileName).path
        let pool: DatabasePool
        do {
            pool = try DatabasePool(path: path, configuration: Self.configuration)
        } catch {
            throw HealthError(database: error, while: "opening \(path)")
        }
        try self.init(database: pool)
    }

    /// A store that lives in memory only, for tests and throw-away work.
    public static func inMemory() throws(HealthError) -> SQLiteHealthStore {
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(configuration: configuration)
        } catch {
            throw HealthError(database: error, while: "opening an in-memory database")
        }
        return try SQLiteHealthStore(database: queue)
    }

    /// Wraps an open database and brings its schema up to date.
    private init(database: any DatabaseWriter) throws(HealthError) {
        self.database = database
        do {
            try HealthMigrations.migrator.migrate(database)
        } catch {
            throw HealthError(database: error, while: "migrating the schema")
        }
    }

    /// Foreign keys on (GRDB's default), a busy timeout for other processes on the
    /// same file; for the writer `synchronous = NORMAL`, which in WAL mode is safe
    /// against corruption and commits without waiting for the disk on every
    /// transaction, a 64 MiB page cache, so that a large batch updates the UUID and
    /// time indexes in memory instead of re-reading their pages from the file, and a
    /// checkpoint every 10,000 WAL pages (40 MiB) instead of 1,000: ingest rewrites the
    /// same index pages commit after commit, and a checkpoint copies each page once,
    /// however often it changed, with one `fsync` (twice the ingest rate here).
    private static var configuration: Configuration {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(10)
        configuration.label = "SADEHealth"
        configuration.prepareDatabase { db in
            if !db.configuration.readonly {
                try db.execute(sql: "PRAGMA synchronous = NORMAL; PRAGMA cache_size = -65536; PRAGMA wal_autocheckpoint = 10000")
            }
        }
        return configuration
    }

    /// The names of the migrations this database has run, oldest first.
    public func appliedMigrations() async throws(HealthError) -> [String] {
        try await read { db in try HealthMigrations.migrator.appliedMigrations(db) }
    }

    /// How many rows `table` holds (for tests and diagnostics: proves e.g. that an ECG
    /// is stored in chunks).
    func rowCount(_ table: String) async throws(HealthError) -> Int {
        try await read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table.quotedDatabaseIdentifier)") ?? 0 }
    }

    // MARK: Database access with typed errors

    /// Runs `body` in a write transaction; any error becomes a ``HealthError``.
    func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws(HealthError) -> T {
        do {
            return try await database.write(body)
        } catch {
            throw HealthError(database: error, while: "writing")
        }
    }

    /// Runs `body` on a consistent snapshot; any error becomes a ``HealthError``.
    func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws(HealthError) -> T {
        do {
            return try await database.read(body)
        } catch {
            throw HealthError(database: error, while: "reading")
        }
    }
}
