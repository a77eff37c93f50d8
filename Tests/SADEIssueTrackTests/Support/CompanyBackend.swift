import Foundation
import SADEIssueTrack
import SADEPostgres
import SADETestSupport
import Testing

/// The stores the company store's suite runs against: SQLite in memory or in a
/// temporary folder, and PostgreSQL (a database of its own on the test process's
/// throwaway server).
enum CompanyBackend: String, CaseIterable, CustomTestStringConvertible {
    case sqlite, postgres
    var testDescription: String { rawValue }

    /// A new place for stores: a folder, or a database's URL. Stores opened on the same
    /// place share the company (a restart, or another node).
    func place() async throws -> String {
        switch self {
        case .sqlite: FileManager.default.temporaryDirectory.appendingPathComponent("sade-issuetrack-\(UUID().uuidString)").path
        case .postgres: try await PostgresTestServer.makeDatabase()
        }
    }

    /// A store on `place`; a new, empty one when `nil` (in memory for SQLite).
    func store(at place: String? = nil) async throws -> any CompanyStore {
        switch self {
        case .sqlite:
            return try SQLiteCompanyStore(directory: place)
        case .postgres:
            var url = place
            if url == nil { url = try await self.place() }
            return try await PostgresCompanyStore(try await Self.pool(url ?? ""))
        }
    }

    /// A pool on a test database, patient with every suite running at once.
    static func pool(_ url: String) async throws -> PostgresPool {
        try await PostgresPool.connect(PostgresLocation(url: url), maximumConnections: 4, timeout: .seconds(30), leaseTimeout: .seconds(120))
    }

    /// Removes a SQLite place's folder (a database is dropped with its server).
    func remove(_ place: String) {
        if self == .sqlite { try? FileManager.default.removeItem(atPath: place) }
    }
}
