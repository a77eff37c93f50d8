import Foundation
import PostgresNIO
import SADEHealth
import SADEPostgres

/// The health store and clinical registry on PostgreSQL, for several nodes sharing
/// one database; the same behaviour as `SQLiteHealthStore` (one conformance suite
/// runs against both).
///
/// Anchored queries hold across nodes: every change takes its number from one
/// counter row whose lock the writer keeps until it commits, so a reader never sees
/// change n before a change numbered below it. ``observe(_:patient:as:)`` hears the
/// saves made through this store object.
///
/// ```swift
/// let database = try await PostgresPool.connect(PostgresLocation(url: "postgres://sade@db/sade"))
/// let store = try await PostgresHealthStore(database)
/// ```
public final class PostgresHealthStore: HealthStore, ClinicalRegistry {
    /// The database, shared with the node's other stores.
    public let database: PostgresPool
    /// The live streams of ``observe(_:patient:as:)``.
    let observers = SampleObservers()
    /// Saves of samples, committed together when they come while one is being written.
    let saves: PostgresSaveQueue
    /// The migrations' store name.
    static let migrationStore = "health"

    /// Wraps `database` and brings its schema up to date (safe when several nodes start at once).
    ///
    /// - Throws: ``HealthError/storage(_:)`` when a migration fails.
    public init(_ database: PostgresPool) async throws(HealthError) {
        self.database = database
        saves = PostgresSaveQueue(database: database)
        do {
            try await database.migrate(Self.migrationStore, PostgresHealthSchema.migrations)
        } catch {
            throw HealthError(postgres: error, while: "migrating the schema")
        }
        // Shards of patients are picked in SQL by the MD5 of the identifier's bytes as the
        // database holds them: the UTF-8 that PatientShards hashes.
        let encoding: String?
        do {
            encoding = try await database.query("SHOW server_encoding").first?.decode(String.self)
        } catch {
            throw HealthError(postgres: error, while: "reading the database's encoding")
        }
        guard let encoding, ["UTF8", "SQL_ASCII"].contains(encoding) else {
            throw .storage("the database's encoding is \(encoding ?? "unknown"), not UTF8: create it with ENCODING 'UTF8'")
        }
    }

    /// The names of the migrations this database has run, oldest first.
    public func appliedMigrations() async throws(HealthError) -> [String] {
        do {
            return try await database.migrate(Self.migrationStore, [])
        } catch {
            throw HealthError(postgres: error, while: "reading the migrations")
        }
    }

    /// How many rows `table` holds (for tests and diagnostics).
    func rowCount(_ table: String) async throws(HealthError) -> Int {
        try await read { [database] connection in
            try await connection.rows(PostgresQuery(unsafeSQL: "SELECT COUNT(*) FROM \"\(table)\""), database).first?.decode(Int.self) ?? 0
        }
    }

    /// How many streams of ``observe(_:patient:as:)`` are open.
    var observerCount: Int { observers.count }

    // MARK: Database access with typed errors

    /// Runs `body` in a read-write transaction; any error becomes a ``HealthError``.
    func write<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws(HealthError) -> T {
        do {
            return try await database.transaction(.readCommitted, body)
        } catch {
            throw HealthError(postgres: error, while: "writing")
        }
    }

    /// Runs one statement outside a transaction (a statement reads one snapshot by
    /// itself: one round trip where ``read(_:)`` takes three) and turns each row with
    /// `transform`; any error becomes a ``HealthError``.
    func read<T: Sendable>(_ query: PostgresQuery, _ transform: (PostgresRow) throws -> T) async throws(HealthError) -> [T] {
        do {
            return try await database.query(query).map(transform)
        } catch {
            throw HealthError(postgres: error, while: "reading")
        }
    }

    /// Runs `body` in a read-only transaction on one snapshot; any error becomes a ``HealthError``.
    func read<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws(HealthError) -> T {
        do {
            return try await database.transaction(.snapshot, body)
        } catch {
            throw HealthError(postgres: error, while: "reading")
        }
    }
}

extension HealthError {
    /// Maps an error thrown inside a database access: a ``HealthError`` thrown by our
    /// own code passes through; a database error becomes ``HealthError/storage(_:)``
    /// (a unique violation ``HealthError/duplicate(_:)``, a server that cannot be
    /// reached ``HealthError/unavailable(_:)``).
    init(postgres error: any Error, while doing: String) {
        if let error = error as? HealthError {
            self = error
            return
        }
        let failure = PostgresFailure(error)
        if failure.isUniqueViolation {
            self = .duplicate(failure.message)
        } else if failure.isUnavailable {
            self = .unavailable("\(doing): \(failure)")
        } else {
            self = .storage("\(doing): \(failure)")
        }
    }
}
