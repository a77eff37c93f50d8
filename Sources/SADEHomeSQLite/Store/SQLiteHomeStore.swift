import Foundation
import GRDB
import SADEHome
import Synchronization

/// The home store on one SQLite database (GRDB): flats, devices, events with hourly
/// statistics, occupancy and messages.
///
/// The embedded default is a file opened as a WAL-mode `DatabasePool`, so reads run
/// beside a write; `path: nil` keeps it in memory for tests. The schema is built by
/// named migrations (``HomeMigrations``).
///
/// ```swift
/// let store = try SQLiteHomeStore(path: "./sade-data/home.sqlite")
/// let flat = try await store.createFlat(.demoFlat(name: "Flat 1", resident: "p-1", carers: ["nurse1"]))
/// ```
public final class SQLiteHomeStore: HomeStore {
    /// The database; a pool for a file, a queue in memory.
    let database: any DatabaseWriter
    /// Every device by id: events are checked and routed without a read.
    let devices = Mutex<[DeviceID: Device]>([:])
    /// Flats as last read or written: every ingest reads its flat. Only this store
    /// writes the file, so a flat changes only through it.
    let flatCache = Mutex<[FlatID: Flat]>([:])

    /// The file name inside a data directory.
    public static let fileName = "home.sqlite"

    /// Opens (creating it if needed) the database at `path`, or one in memory when `nil`.
    public convenience init(path: String?) throws(HomeError) {
        do {
            if let path {
                let directory = (path as NSString).deletingLastPathComponent
                if !directory.isEmpty { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
                try self.init(writer: try DatabasePool(path: path, configuration: Self.configuration))
            } else {
                try self.init(writer: try DatabaseQueue(configuration: Self.configuration))
            }
        } catch let error as HomeError {
            throw error
        } catch {
            throw .storage("cannot open \(path ?? "an in-memory database"): \(error)")
        }
    }

    /// Wraps an open database (which may hold other tables too) and migrates it.
    public init(writer: any DatabaseWriter) throws(HomeError) {
        database = writer
        do {
            try HomeMigrations.migrator.migrate(writer)
            let known = try writer.read { db in try Device.fetchAllRows(db) }
            devices.withLock { cache in for device in known { cache[device.id] = device } }
        } catch {
            throw .storage("cannot migrate the home database: \(error)")
        }
    }

    /// WAL with `synchronous = NORMAL` (durable against a crash of the process, and
    /// commits without waiting for the disk each time) and a 64 MiB cache.
    private static var configuration: Configuration {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(10)
        configuration.label = "SADEHome"
        configuration.prepareDatabase { db in
            if !db.configuration.readonly {
                try db.execute(sql: "PRAGMA synchronous = NORMAL; PRAGMA cache_size = -65536")
            }
        }
        return configuration
    }

    /// Runs `work` in a write transaction, mapping database errors to ``HomeError``.
    func write<T: Sendable>(_ what: String, _ work: @escaping @Sendable (Database) throws -> T) async throws(HomeError) -> T {
        do { return try await database.write(work) } catch let error as HomeError { throw error } catch {
            throw .storage("\(what): \(error)")
        }
    }

    /// Runs `work` on a read-only connection, mapping database errors to ``HomeError``.
    func read<T: Sendable>(_ what: String, _ work: @escaping @Sendable (Database) throws -> T) async throws(HomeError) -> T {
        do { return try await database.read(work) } catch let error as HomeError { throw error } catch {
            throw .storage("\(what): \(error)")
        }
    }

    /// Milliseconds since 1970 for `date`.
    static func milliseconds(_ date: Date) -> Int64 { HomeTime.milliseconds(date) }

    /// The date of `milliseconds` since 1970.
    static func date(_ milliseconds: Int64) -> Date { HomeTime.date(milliseconds) }
}
