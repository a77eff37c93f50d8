import ArgumentParser
import Foundation
import SADEMonitoring
import SADEPostgres

/// `sade audit …`: the audit trail of `sade serve`.
struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit", abstract: "Check the audit trail of sade serve.", subcommands: [AuditVerifyCommand.self])
}

/// `sade audit verify --data DIR` (or `--database URL`): reads the whole chain, checking
/// every entry's hash and link and the head; exit 0 when intact, 1 with the first
/// broken entry when not.
struct AuditVerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check that no audit entry was changed, removed or reordered (exit 1 and the first broken entry if one was).")

    @Option(help: "The data directory of sade serve (its audit.sqlite).")
    var data: String?

    @Option(name: .customLong("database"), help: "The PostgreSQL database of sade serve --database (postgres://…).")
    var database: String?

    func validate() throws {
        guard (data == nil) != (database == nil) else { throw ValidationError("give --data DIR or --database URL") }
        if let database {
            do { _ = try PostgresLocation(url: database) } catch { throw ValidationError("\(error)") }
        }
    }

    func run() async throws {
        let (records, close) = try await open()
        let verification = try await AuditChain.verify(records)
        let head = verification.head
        guard let broken = verification.firstBreak else {
            print("audit trail intact: \(verification.entries) entries, head \(head.sequence) \(head.hash)")
            await close()
            return
        }
        print("audit trail BROKEN at \(broken) (\(verification.entries) entries read)")
        if let entry = try await records.chain(after: broken.sequence - 1, limit: 1).first, entry.sequence == broken.sequence {
            let event = entry.event
            print(
                "  entry \(entry.sequence): \(event.at.formatted(.iso8601)) \(event.actor ?? "anonymous") \(event.action.rawValue) \(event.target) → \(event.status)"
            )
        }
        await close()
        throw ExitCode(1)
    }

    private func open() async throws -> (any AuditRecords, @Sendable () async -> Void) {
        if let database {
            let location = try PostgresLocation(url: database)
            do {
                let pool = try await PostgresPool.connect(location, maximumConnections: 2)
                return (try await PostgresAuditRecords(pool), { await pool.close() })
            } catch let failure as PostgresFailure where failure.isUnavailable {
                FileHandle.standardError.write(Data("error: the database at \(location) is unavailable: \(failure)\n".utf8))
                throw ExitCode(69)
            } catch MonitoringError.unavailable(let reason) {
                FileHandle.standardError.write(Data("error: the database at \(location) is unavailable: \(reason)\n".utf8))
                throw ExitCode(69)
            }
        }
        let path = ((data ?? ".") as NSString).appendingPathComponent(SQLiteAuditRecords.fileName)
        do {
            return (try SQLiteAuditRecords(existingFileAt: path), {})
        } catch {
            throw ValidationError("\(error)")
        }
    }
}
