import Foundation
import PostgresNIO
import SADEPostgres

/// A database of its own for an on-demand PostgreSQL suite, on the server `--database`
/// names: made before `body`, dropped after it, whatever happens.
enum BenchDatabase {
    static func with<Result>(
        _ context: BenchContext, suite: String, _ body: (PostgresLocation) async throws -> Result
    ) async throws -> Result {
        guard let url = context.database else { throw BenchError.unexpected("\(suite) needs --database postgres://user@host:port/database") }
        let server = try PostgresLocation(url: url)
        let admin = try await PostgresPool.connect(server, maximumConnections: 1)
        let name = "sade_bench_\(UUID().uuidString.prefix(8).lowercased())"
        try await admin.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"))
        var location = server
        location.database = name
        func drop() async {
            _ = try? await admin.query(PostgresQuery(unsafeSQL: "DROP DATABASE \(name) WITH (FORCE)"))
            await admin.close()
        }
        do {
            let result = try await body(location)
            await drop()
            return result
        } catch {
            await drop()
            throw error
        }
    }

    /// `server`'s URL (as given to `--database`) naming `database` instead: for a node
    /// started as another process.
    static func url(_ server: String, database: String) throws -> String {
        guard var components = URLComponents(string: server) else { throw BenchError.unexpected("--database \(server) is not a URL") }
        components.path = "/" + database
        guard let url = components.string else { throw BenchError.unexpected("no URL for database \(database)") }
        return url
    }
}
