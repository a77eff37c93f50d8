import Foundation
import Testing
import SADEHealth
@testable import SADEHealthPostgres
@testable import SADEHealthSQLite
import SADEPostgres
import SADETestSupport

/// The stores one conformance suite runs against: SQLite in a real file in a fresh
/// temporary directory and in memory, and PostgreSQL (a database of its own on the
/// test process's throwaway server).
enum StoreKind: String, CaseIterable, CustomTestStringConvertible {
    case file, memory, postgres
    var testDescription: String { rawValue }

    /// One store of each backend.
    static let backends: [StoreKind] = [.memory, .postgres]
}

/// What the suite asks of every store beyond the protocols.
protocol TestedHealthStore: HealthStore, ClinicalRegistry {
    func rowCount(_ table: String) async throws(HealthError) -> Int
    func grants(of principal: Principal?) async throws(HealthError) -> [AccessGrant]
    func appliedMigrations() async throws(HealthError) -> [String]
    var observerCount: Int { get }
}

extension TestedHealthStore {
    /// Every grant.
    func grants() async throws(HealthError) -> [AccessGrant] { try await grants(of: nil) }
}

extension SQLiteHealthStore: TestedHealthStore {
    var observerCount: Int { observers.count }
}

extension PostgresHealthStore: TestedHealthStore {}

/// A new store of `kind` (a file store's directory is left to the system's temporary folder).
func makeStore(_ kind: StoreKind) async throws -> any TestedHealthStore {
    switch kind {
    case .memory: return try SQLiteHealthStore.inMemory()
    case .file: return try SQLiteHealthStore(directory: TemporaryDirectory().path)
    case .postgres: return try await PostgresHealthStore(PostgresPool.connect(PostgresLocation(url: PostgresTestServer.makeDatabase()), maximumConnections: 4, timeout: .seconds(30)))
    }
}

/// Runs `body` with a new store of `kind`; a file store's directory is removed afterwards.
func withStore<T>(_ kind: StoreKind, _ body: (any TestedHealthStore) async throws -> T) async throws -> T {
    switch kind {
    case .memory, .postgres:
        return try await body(try await makeStore(kind))
    case .file:
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        return try await body(try SQLiteHealthStore(directory: directory.path))
    }
}

/// What an operation threw: `nil` when it succeeded; any error that is not a
/// ``HealthError`` comes back as a storage error saying so, so it fails comparisons.
func healthError(_ body: () async throws -> Void) async -> HealthError? {
    do {
        try await body()
        return nil
    } catch let error as HealthError {
        return error
    } catch {
        return .storage("not a HealthError: \(error)")
    }
}

