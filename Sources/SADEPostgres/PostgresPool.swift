import Foundation
import Logging
import PostgresNIO
import Synchronization
import _ConnectionPoolModule

/// One PostgreSQL database shared by the stores of a node: a pool of connections
/// (PostgresNIO's `PostgresClient`, run by the database itself), transactions, and
/// migrations that any number of nodes may run at once.
///
/// ```swift
/// let database = try await PostgresPool.connect(PostgresLocation(url: "postgres://sade@db/sade"))
/// defer { Task { await database.close() } }
/// ```
public final class PostgresPool: Sendable {
    /// Where the database is.
    public let location: PostgresLocation
    /// The pool.
    let client: PostgresClient
    /// Runs the pool until ``close()``.
    private let runner: Task<Void, Never>
    /// For PostgresNIO's queries and transactions.
    public let logger: Logger
    /// How long a request waits for a connection before it fails as unavailable.
    public let leaseTimeout: Duration

    private init(location: PostgresLocation, client: PostgresClient, logger: Logger, leaseTimeout: Duration) {
        self.location = location
        self.client = client
        self.logger = logger
        self.leaseTimeout = leaseTimeout
        runner = Task { await client.run() }
    }

    /// Opens a pool of at most `maximumConnections` to `location` and checks that the
    /// server answers within `timeout`; later, a request that gets no connection within
    /// `leaseTimeout` (the server down, or every connection busy that long) fails as
    /// unavailable instead of waiting.
    ///
    /// - Throws: ``PostgresFailure`` with ``PostgresFailure/isUnavailable`` set when the
    ///   server cannot be reached within `timeout` or refuses the login.
    public static func connect(
        _ location: PostgresLocation, maximumConnections: Int = 20, timeout: Duration = .seconds(10), leaseTimeout: Duration = .seconds(10),
        logger: Logger = Logger(label: "sade.postgres")
    ) async throws(PostgresFailure) -> PostgresPool {
        var configuration = location.configuration
        configuration.options.maximumConnections = maximumConnections
        configuration.options.connectTimeout = timeout
        let database = PostgresPool(
            location: location, client: PostgresClient(configuration: configuration, backgroundLogger: logger), logger: logger,
            leaseTimeout: leaseTimeout)
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await database.client.query("SELECT 1") }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    throw PostgresFailure(unavailable: "no answer from \(location) within \(timeout)")
                }
                try await group.next()
                group.cancelAll()
            }
        } catch {
            await database.close()
            var failure = PostgresFailure(error)
            failure.isUnavailable = true
            failure.message = "cannot connect to \(location): \(failure.message)"
            throw failure
        }
        return database
    }

    /// Closes every connection; queries after this fail.
    public func close() async {
        runner.cancel()
        await runner.value
    }

    deinit { runner.cancel() }

    // MARK: Queries

    /// Runs one statement on a pooled connection and collects its rows.
    ///
    /// - Throws: ``PostgresFailure``.
    @discardableResult
    public func query(_ query: PostgresQuery) async throws(PostgresFailure) -> [PostgresRow] {
        do {
            return try await leased { connection in try await connection.query(query, logger: self.logger).collect() }
        } catch {
            throw PostgresFailure(error)
        }
    }

    /// Runs `body` in a transaction on one pooled connection (`BEGIN` … `COMMIT`, or
    /// `ROLLBACK` when it throws); `isolation` is sent with the `BEGIN`.
    ///
    /// - Throws: what `body` threw when it is not a database error, else ``PostgresFailure``
    ///   (``PostgresFailure/isUnavailable`` when no connection could be had in time).
    public func transaction<Result: Sendable>(
        _ isolation: TransactionIsolation = .readCommitted, _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        let logger = self.logger
        do {
            return try await leased { connection in
                try await connection.query(PostgresQuery(unsafeSQL: "BEGIN ISOLATION LEVEL \(isolation.rawValue)"), logger: logger)
                let result: Result
                do {
                    result = try await body(connection)
                } catch {
                    _ = try? await connection.query("ROLLBACK", logger: logger)
                    throw error
                }
                try await connection.query("COMMIT", logger: logger)
                return result
            }
        } catch let error as PSQLError {
            throw PostgresFailure(error)
        } catch let error as ConnectionPoolError {
            throw PostgresFailure(error)
        }
    }

    /// Runs `body` on a pooled connection, failing fast when none can be had within
    /// ``leaseTimeout`` (the server down or restarting: PostgresNIO's pool would keep
    /// the request waiting while it retries). Once `body` has its connection it runs to
    /// the end, however long: a statement that may have committed is never reported as
    /// failed for being slow.
    private func leased<Result: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> Result) async throws -> Result {
        let lease = LeaseState()
        let timeout = leaseTimeout, location = location
        return try await withThrowingTaskGroup(of: Result?.self) { group in
            group.addTask {
                try await self.client.withConnection { connection in
                    // Too late: the caller was told the database is unavailable, so the
                    // work must not happen behind its back.
                    guard lease.start() else { throw PostgresFailure(unavailable: "no connection to \(location) within \(timeout)") }
                    return try await body(connection)
                }
            }
            group.addTask {
                try? await Task.sleep(for: timeout)  // cancelled early: the same question, sooner
                guard lease.giveUp() else { return nil }  // started in time: wait for the work's own end
                throw PostgresFailure(unavailable: "no connection to \(location) within \(timeout)")
            }
            while let next = try await group.next() {
                if let result = next {
                    group.cancelAll()
                    return result
                }
            }
            throw CancellationError()
        }
    }

    /// Runs `body` on one pooled connection outside a transaction: each statement
    /// commits (and sees a snapshot) of its own.
    ///
    /// - Throws: what `body` threw when it is not a database error, else ``PostgresFailure``.
    public func withConnection<Result: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> Result) async throws -> Result {
        do {
            return try await leased(body)
        } catch let error as PSQLError {
            throw PostgresFailure(error)
        } catch let error as ConnectionPoolError {
            throw PostgresFailure(error)
        }
    }

    /// How a transaction sees the others.
    public enum TransactionIsolation: String, Sendable {
        /// Each statement sees what was committed before it began.
        case readCommitted = "READ COMMITTED"
        /// Every statement sees one snapshot, taken at the first; read only.
        case snapshot = "REPEATABLE READ READ ONLY"
    }

    // MARK: Notifications

    /// The payloads sent to `channel` by any node (`NOTIFY`, ``notify(_:_:)``) from now
    /// on, in the order the server delivers them, on a connection of the pool kept for
    /// them until the stream is dropped. Returns once the server listens, so nothing
    /// sent after this call returns is missed while the connection lives; a lost
    /// connection ends the stream with its error.
    ///
    /// - Throws: ``PostgresFailure`` when the server cannot be asked to listen.
    public func listen(_ channel: String) async throws(PostgresFailure) -> AsyncThrowingStream<String, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: String.self)
        let (ready, readiness) = AsyncStream.makeStream(of: PostgresFailure?.self)
        let client = self.client
        let task = Task {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: channel) { notifications in
                        readiness.yield(nil)
                        for try await notification in notifications {
                            continuation.yield(notification.payload)
                        }
                    }
                }
                continuation.finish()
            } catch {
                readiness.yield(PostgresFailure(error))  // ignored once ready
                continuation.finish(throwing: PostgresFailure(error))
            }
            readiness.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        // Ready, failed, or no connection within the lease timeout.
        let timeout = leaseTimeout, location = location
        let timer = Task {
            try? await Task.sleep(for: timeout)
            readiness.yield(PostgresFailure(unavailable: "no connection to \(location) within \(timeout) to listen on \(channel)"))
        }
        var outcome = ready.makeAsyncIterator()
        let first = await outcome.next()
        timer.cancel()
        switch first {
        case .some(.none):
            return stream
        case .some(.some(let failure)):
            task.cancel()
            throw failure
        case .none:
            task.cancel()
            throw PostgresFailure(unavailable: "cannot listen on \(channel) at \(location)")
        }
    }

    /// Sends `payload` (at most 7,999 bytes) to every listener of `channel`, on every
    /// node, when the transaction commits.
    public func notify(_ channel: String, _ payload: String) async throws(PostgresFailure) {
        try await query("SELECT pg_notify(\(channel), \(payload))")
    }

    /// Sends `payloads` on `channel` in one statement (one round trip, one transaction):
    /// listeners get them in this order. PostgreSQL delivers identical payloads of one
    /// transaction once: those go one by one.
    public func notify(_ channel: String, _ payloads: [String]) async throws(PostgresFailure) {
        guard !payloads.isEmpty else { return }
        guard Set(payloads).count == payloads.count else {
            for payload in payloads { try await notify(channel, payload) }
            return
        }
        try await query("SELECT pg_notify(\(channel), payload) FROM unnest(\(payloads)::TEXT[]) AS payload")
    }

    // MARK: Migrations

    /// A named change to the schema; run once per database.
    public struct Migration: Sendable {
        public let name: String
        /// Its statements, run one by one (PostgreSQL prepares one statement at a time).
        public let statements: [String]

        /// A migration from SQL text whose statements each end a line with `;`.
        public init(_ name: String, _ sql: String) {
            self.name = name
            var statements: [String] = [], current: [Substring] = []
            for line in sql.split(separator: "\n", omittingEmptySubsequences: false) {
                let code = line.split(separator: "--", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                current.append(code)
                if code.trimmingCharacters(in: .whitespaces).hasSuffix(";") {
                    statements.append(current.joined(separator: "\n"))
                    current = []
                }
            }
            let rest = current.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
            if !rest.isEmpty { statements.append(rest) }
            self.statements = statements
        }
    }

    /// Runs the migrations of `store` this database has not seen, in order, each in the
    /// transaction that records it. Nodes starting together take turns on an advisory
    /// lock, so each migration runs once.
    ///
    /// - Returns: the names of every migration of `store` the database has run, oldest first.
    @discardableResult
    public func migrate(_ store: String, _ migrations: [Migration]) async throws(PostgresFailure) -> [String] {
        do {
            return try await transaction { connection in
                try await connection.query("SELECT pg_advisory_xact_lock(hashtext('sade_migrations'))", logger: self.logger)
                try await connection.query(
                    """
                    CREATE TABLE IF NOT EXISTS sade_migration (
                        position BIGSERIAL, store TEXT NOT NULL, name TEXT NOT NULL,
                        applied_at TIMESTAMPTZ NOT NULL DEFAULT now(), PRIMARY KEY (store, name))
                    """, logger: self.logger)
                var applied: [String] = []
                for try await name in try await connection.query(
                    "SELECT name FROM sade_migration WHERE store = \(store) ORDER BY position", logger: self.logger
                ).decode(String.self) {
                    applied.append(name)
                }
                for migration in migrations where !applied.contains(migration.name) {
                    for statement in migration.statements {
                        try await connection.query(PostgresQuery(unsafeSQL: statement), logger: self.logger)
                    }
                    try await connection.query("INSERT INTO sade_migration (store, name) VALUES (\(store), \(migration.name))", logger: self.logger)
                    applied.append(migration.name)
                }
                return applied
            }
        } catch {
            throw PostgresFailure(error)
        }
    }
}

/// Whether a request got its connection in time, decided once by whichever of the
/// request and its timer comes first.
private final class LeaseState: Sendable {
    private enum Phase { case waiting, started, gaveUp }
    private let phase = Mutex(Phase.waiting)

    /// The connection came: true unless the timer gave up first.
    func start() -> Bool {
        phase.withLock { phase in
            guard phase == .waiting else { return false }
            phase = .started
            return true
        }
    }

    /// The time is up: true unless the work started first.
    func giveUp() -> Bool {
        phase.withLock { phase in
            guard phase == .waiting else { return false }
            phase = .gaveUp
            return true
        }
    }
}
