import Foundation
import SADEHome
import SADEHomePostgres
import SADEHomeSQLite
import SADEPostgres
import SADETestSupport
import Testing

/// The stores the home store's suite runs against: SQLite in memory or in a temporary
/// file, and PostgreSQL (a database of its own on the test process's throwaway server).
enum HomeBackend: String, CaseIterable, CustomTestStringConvertible {
    case sqlite, postgres
    var testDescription: String { rawValue }

    /// A new place for stores: a file's path, or a database's URL. Stores opened on the
    /// same place share their homes (a restart, or another node).
    func place() async throws -> String {
        switch self {
        case .sqlite:
            FileManager.default.temporaryDirectory.appendingPathComponent("sade-home-\(UUID().uuidString)/home.sqlite").path
        case .postgres:
            try await PostgresTestServer.makeDatabase()
        }
    }

    /// A store on `place`; a new, empty one when `nil` (in memory for SQLite).
    func store(at place: String? = nil) async throws -> any HomeStore {
        switch self {
        case .sqlite:
            return try SQLiteHomeStore(path: place)
        case .postgres:
            var url = place
            if url == nil { url = try await self.place() }
            // Correctness, not latency: with every suite at once, a batch may wait long for a connection.
            let pool = try await PostgresPool.connect(
                PostgresLocation(url: url ?? ""), maximumConnections: 4, timeout: .seconds(30), leaseTimeout: .seconds(120))
            return try await PostgresHomeStore(pool)
        }
    }

    /// Removes a SQLite place's folder (a database is dropped with its server).
    func remove(_ place: String) {
        if self == .sqlite { try? FileManager.default.removeItem(atPath: (place as NSString).deletingLastPathComponent) }
    }
}
