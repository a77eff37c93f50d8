import ArgumentParser
import Foundation
import SADEHealth
import SADEHealthPostgres
import SADEHealthSQLite
import SADEMonitoring
import SADEPostgres

/// `sade keys …`: the data key file of `sade serve --data-key-file`.
struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys", abstract: "Make or rotate the key that seals identifying data.",
        subcommands: [KeysNewCommand.self, KeysRotateCommand.self])
}

/// `sade keys new --data-key-file F`: a file with one new random key.
struct KeysNewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new", abstract: "Write a data key file with a new random key (never over an existing file).")

    @Option(help: "The data key file to write (readable by its owner only).")
    var dataKeyFile: String

    func run() async throws {
        guard !FileManager.default.fileExists(atPath: dataKeyFile) else {
            throw ValidationError("\(dataKeyFile) exists: sade keys rotate replaces its key")
        }
        let key = DataKeyRing.Key.random()
        try DataKeyRing([key]).write(to: dataKeyFile)
        print("data key \(key.id) written to \(dataKeyFile); keep it apart from the data and its backups")
    }
}

/// `sade keys rotate --data-key-file F --data DIR` (or `--database URL`): adds a new
/// key, seals every identifying record again under it, then retires the old keys. Stop
/// `sade serve` (every node) first, and start it again with the same file.
struct KeysRotateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rotate",
        abstract: "Seal every identifying record under a new key and retire the old ones (with sade serve stopped).",
        discussion: """
            The file holds both keys while the records are sealed again, so a rotation cut short is finished by running \
            it again. Records written before there was a key are sealed too.
            """)

    @Option(help: "The data key file of sade serve.")
    var dataKeyFile: String

    @Option(help: "The data directory of sade serve.")
    var data: String?

    @Option(name: .customLong("database"), help: "The PostgreSQL database of sade serve --database (postgres://…).")
    var database: String?

    func validate() throws {
        guard (data == nil) != (database == nil) else { throw ValidationError("give --data DIR or --database URL") }
    }

    func run() async throws {
        let old: DataKeyRing
        do { old = try DataKeyRing(fileAt: dataKeyFile) } catch { throw ValidationError("\(error)") }
        let key = DataKeyRing.Key.random()
        let both = try DataKeyRing([key] + old.keys)
        try both.write(to: dataKeyFile)  // before anything is sealed under the new key
        let report: DataKeyRotation.Report
        if let database {
            let pool = try await PostgresPool.connect(try PostgresLocation(url: database), maximumConnections: 2)
            do {
                report = try await DataKeyRotation.reseal(
                    health: try await PostgresHealthStore(pool), accounts: try await PostgresAccountRecords(pool), keys: both)
            } catch {
                await pool.close()
                throw error
            }
            await pool.close()
        } else {
            let directory = data ?? "."
            guard FileManager.default.fileExists(atPath: (directory as NSString).appendingPathComponent(MonitoringDatabase.fileName)) else {
                throw ValidationError("no sade serve data in \(directory)")
            }
            report = try await DataKeyRotation.reseal(
                health: try SQLiteHealthStore(directory: directory),
                accounts: DataKeyRotation.accountRecords(in: try MonitoringDatabase(directory: directory)), keys: both)
        }
        try DataKeyRing([key]).write(to: dataKeyFile)
        let retired = old.keys.map(\.id).joined(separator: ", ")
        print(
            "data key \(key.id) now seals \(report.patients) patients, \(report.workers) workers and \(report.accounts) accounts; retired \(retired)"
        )
    }
}
