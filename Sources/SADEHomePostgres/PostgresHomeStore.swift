import Foundation
import PostgresNIO
import SADEHome
import SADEPostgres
import Synchronization

/// The home store on PostgreSQL, for several nodes sharing one database; the same
/// behaviour as `SQLiteHomeStore` (one conformance suite runs against both).
///
/// Events of one flat are recorded one batch at a time across nodes (the flat's row is
/// locked until the batch commits), so latest states, hourly statistics and occupancy
/// add up whichever node takes the batch. Flats are read from the database every time
/// (another node may have changed them); devices never change once made, so they are
/// kept in memory once read.
///
/// ```swift
/// let database = try await PostgresPool.connect(PostgresLocation(url: "postgres://sade@db/sade"))
/// let store = try await PostgresHomeStore(database)
/// ```
public final class PostgresHomeStore: HomeStore {
    /// The database, shared with the node's other stores.
    public let database: PostgresPool
    /// Devices read so far, by id.
    let devices = Mutex<[DeviceID: Device]>([:])

    /// Wraps `database` and brings its schema up to date (safe when several nodes start at once).
    ///
    /// - Throws: ``HomeError/storage(_:)`` when a migration fails, ``HomeError/unavailable(_:)``
    ///   when the server cannot be reached.
    public init(_ database: PostgresPool) async throws(HomeError) {
        self.database = database
        do {
            try await database.migrate("home", PostgresHomeSchema.migrations)
        } catch {
            throw HomeError(postgres: error, while: "migrating the home schema")
        }
    }

    // MARK: Database access with typed errors

    /// Runs `body` in a read-write transaction; any error becomes a ``HomeError``.
    func write<T: Sendable>(_ what: String, _ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws(HomeError) -> T {
        do {
            return try await database.transaction(.readCommitted, body)
        } catch {
            throw HomeError(postgres: error, while: what)
        }
    }

    /// Runs `body` in a read-only transaction on one snapshot; any error becomes a ``HomeError``.
    func read<T: Sendable>(_ what: String, _ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws(HomeError) -> T {
        do {
            return try await database.transaction(.snapshot, body)
        } catch {
            throw HomeError(postgres: error, while: what)
        }
    }

    /// The devices with these ids that exist, from memory or else the database.
    func knownDevices(_ ids: some Sequence<DeviceID>) async throws(HomeError) -> [DeviceID: Device] {
        let wanted = Set(ids)
        var known = devices.withLock { cache in cache.filter { wanted.contains($0.key) } }
        let missing = wanted.subtracting(known.keys)
        guard !missing.isEmpty else { return known }
        let database = self.database
        let read = try await self.read("reading devices") { connection in
            try await Self.devices(
                PostgresQuery("SELECT \(unescaped: Self.deviceColumns) FROM home_device WHERE id = ANY(\(Array(missing))) ORDER BY id"), on: connection,
                database)
        }
        devices.withLock { cache in for device in read { cache[device.id] = device } }
        for device in read { known[device.id] = device }
        return known
    }

    /// Milliseconds since 1970 for `date`.
    static func milliseconds(_ date: Date) -> Int64 { HomeTime.milliseconds(date) }
}

extension HomeError {
    /// Maps an error thrown inside a database access: a ``HomeError`` thrown by the store's
    /// own code passes through; a server that cannot be reached becomes
    /// ``HomeError/unavailable(_:)``, any other database error ``HomeError/storage(_:)``.
    init(postgres error: any Error, while doing: String) {
        if let error = error as? HomeError {
            self = error
            return
        }
        let failure = PostgresFailure(error)
        self = failure.isUnavailable ? .unavailable("\(doing): \(failure)") : .storage("\(doing): \(failure)")
    }
}
