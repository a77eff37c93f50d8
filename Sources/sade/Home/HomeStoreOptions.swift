import ArgumentParser
import Foundation
import SADEHome
import SADEHomePostgres
import SADEHomeSQLite
import SADEPostgres

/// Where a home command finds the homes: a data directory's `home.sqlite`, or the
/// PostgreSQL database that `sade serve --database` nodes share.
struct HomeStoreOptions: ParsableArguments {
    @Option(help: "The data directory of sade serve (its home.sqlite).")
    var data: String?

    @Option(name: .customLong("database"), help: "The PostgreSQL database of sade serve --database (postgres://…).")
    var database: String?

    /// Whether a store was named.
    var isGiven: Bool { data != nil || database != nil }

    func validate() throws {
        guard data == nil || database == nil else { throw ValidationError("give --data DIR or --database URL, not both") }
        if let database {
            do { _ = try PostgresLocation(url: database) } catch { throw ValidationError("\(error)") }
        }
    }

    /// The store, and what closes it when done. With `mustExist`, a data directory
    /// without a home store is an error (and none is made).
    ///
    /// - Throws: exit code 69 when the database cannot be reached.
    func open(mustExist: Bool) async throws -> (store: any HomeStore, close: @Sendable () async -> Void) {
        if let database {
            let location = try PostgresLocation(url: database)
            do {
                let pool = try await PostgresPool.connect(location, maximumConnections: 4)
                return (try await PostgresHomeStore(pool), { await pool.close() })
            } catch let failure as PostgresFailure where failure.isUnavailable {
                FileHandle.standardError.write(Data("error: the database at \(location) is unavailable: \(failure)\n".utf8))
                throw ExitCode(69)
            } catch let error as HomeError {
                if case .unavailable(let reason) = error {
                    FileHandle.standardError.write(Data("error: the database at \(location) is unavailable: \(reason)\n".utf8))
                    throw ExitCode(69)
                }
                throw error
            }
        }
        let directory = data ?? "."
        let path = (directory as NSString).appendingPathComponent(SQLiteHomeStore.fileName)
        if mustExist, !FileManager.default.fileExists(atPath: path) {
            throw ValidationError("no home store at \(path) (sade home import --data \(directory) … makes one)")
        }
        return (try SQLiteHomeStore(path: path), {})
    }
}
