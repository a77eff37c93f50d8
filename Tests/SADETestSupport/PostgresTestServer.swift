import Foundation
import PostgresNIO
import SADEProcess
import SADEPostgres
import Synchronization

/// A throwaway PostgreSQL cluster for this test process: `initdb` into a temporary
/// folder and `pg_ctl start` on a free loopback port, once, on first use; each test
/// takes a database of its own (``makeDatabase()``). A watcher stops the server and
/// removes the folder when the test process ends, however it ends.
///
/// PostgreSQL refuses to run as root, so under root (as in CI) the server runs as the
/// `postgres` user that Debian's `postgresql` package creates.
public final class PostgresTestServer: Sendable {
    /// The loopback port the server listens on.
    public let port: Int
    /// The cluster's folder (data, socket, log).
    public let folder: String
    /// The server's programs (`initdb`, `pg_ctl`, `createdb`, …).
    private let binaries: String

    private init(port: Int, folder: String, binaries: String) {
        self.port = port
        self.folder = folder
        self.binaries = binaries
    }

    private static let started = Mutex<Task<PostgresTestServer, any Error>?>(nil)
    /// The processes that stop the clusters once this process has ended.
    private static let watchers = Mutex<[ChildProcess]>([])

    /// The server of this test process, started on first use.
    ///
    /// - Throws: ``MissingTestTool`` when PostgreSQL is not installed; an error with
    ///   the server's log when it does not start.
    public static func shared() async throws -> PostgresTestServer {
        let task = started.withLock { task in
            if let task { return task }
            let new = Task { try await startOffThePool() }
            task = new
            return new
        }
        return try await task.value
    }

    /// A server of its own, for a test that stops and restarts it.
    public static func startOffThePool() async throws -> PostgresTestServer {
        try await start()
    }

    /// A new, empty database on the shared server; its `postgres://` URL.
    public static func makeDatabase() async throws -> String {
        try await shared().makeDatabase()
    }

    /// A new, empty database on this server (`CREATE DATABASE` on a connection kept for
    /// it, not a `createdb` process to wait for); its `postgres://` URL.
    public func makeDatabase() async throws -> String {
        let name = "test_\(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))"
        try await administration().query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"))
        return url(name)
    }

    private let admin = Mutex<Task<PostgresPool, any Error>?>(nil)

    /// A small pool on the `postgres` database, for making databases.
    private func administration() async throws -> PostgresPool {
        let url = url("postgres")
        let task = admin.withLock { task in
            if let task { return task }
            let new = Task {
                // Tests ask for databases all at once (a CREATE DATABASE takes ~0.2 s): they queue, not fail.
                try await PostgresPool.connect(PostgresLocation(url: url), maximumConnections: 4, timeout: .seconds(60), leaseTimeout: .seconds(600))
            }
            task = new
            return new
        }
        return try await task.value
    }

    /// The URL of database `name` on this server.
    public func url(_ name: String) -> String { "postgres://postgres@127.0.0.1:\(port)/\(name)?sslmode=disable" }

    /// Stops the server at once (a crash, as far as clients can tell).
    public func stop() async throws {
        try await run("pg_ctl", ["-D", "\(folder)/data", "-m", "immediate", "-w", "stop"], asServer: true)
    }

    /// Starts a stopped server again, on the same port.
    public func restart() async throws {
        try await startServer()
    }

    private func startServer() async throws {
        try await run("pg_ctl", ["-D", "\(folder)/data", "-l", "\(folder)/log", "-w", "start"], asServer: true)
    }

    // MARK: Starting

    private static func start() async throws -> PostgresTestServer {
        guard let binaries = findBinaries() else { throw MissingTestTool(what: "PostgreSQL (initdb, pg_ctl; Debian's postgresql)") }
        let folder = "/tmp/sade-pg-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        if getuid() == 0 { try await SadeProcess.check(URL(fileURLWithPath: "/bin/chown"), ["postgres:postgres", folder]) }
        let cluster = PostgresTestServer(port: 0, folder: folder, binaries: binaries)
        try await cluster.run("initdb", ["-D", "\(folder)/data", "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync", "--locale=C"], asServer: true)
        let settings = """
            listen_addresses = '127.0.0.1'
            unix_socket_directories = '\(folder)'
            fsync = off  # a crash of the server (pg_ctl stop -m immediate) keeps every commit; only the machine's would not
            full_page_writes = off
            max_connections = 300
            """
        try settings.appendLine(to: "\(folder)/data/postgresql.conf")
        cluster.watch(parent: getpid())
        return try await onFreePort { port in
            // The last setting of a name wins: each attempt appends its port.
            try "port = \(port)".appendLine(to: "\(folder)/data/postgresql.conf")
            let server = PostgresTestServer(port: port, folder: folder, binaries: binaries)
            do {
                try await server.startServer()
            } catch let error as PostgresTestServerError where PortTaken.isSaid(in: error.description) {
                throw PortTaken(error.description)
            }
            return server
        }
    }

    /// Stops the server and removes its folder once process `parent` has ended.
    private func watch(parent: pid_t) {
        let script = """
            while kill -0 \(parent) 2>/dev/null; do sleep 1; done
            \(isRootPrefix)\(binaries)/pg_ctl -D \(folder)/data -m immediate stop >/dev/null 2>&1
            rm -rf \(folder)
            """
        // Not stopped by the reaper with the test process's other children: it has work to
        // do then. Held for as long as this process runs (a released child is stopped).
        if let watcher = try? ChildProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", script], errors: .discarded, reaped: false) {
            Self.watchers.withLock { $0.append(watcher) }
        }
    }

    private var isRootPrefix: String { getuid() == 0 ? "/usr/sbin/runuser -u postgres -- " : "" }

    /// Debian's `/usr/lib/postgresql/<version>/bin` (the newest), else the folder of `initdb` on the path.
    private static func findBinaries() -> String? {
        let debian = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: debian)) ?? []).compactMap(Int.init).sorted()
        if let newest = versions.last, FileManager.default.isExecutableFile(atPath: "\(debian)/\(newest)/bin/initdb") {
            return "\(debian)/\(newest)/bin"
        }
        return TestTools.locate("initdb").map { URL(fileURLWithPath: $0).deletingLastPathComponent().path }
    }

    /// Runs one of the server's programs to the end, as the server's user when asked.
    private func run(_ program: String, _ arguments: [String], asServer: Bool = false) async throws {
        let (executable, arguments) =
            asServer && getuid() == 0
            ? ("/usr/sbin/runuser", ["-u", "postgres", "--", "\(binaries)/\(program)"] + arguments) : ("\(binaries)/\(program)", arguments)
        // `pg_ctl start -l` leaves the server writing to the log, not to our pipes.
        let run = try await SadeProcess(arguments, executable: URL(fileURLWithPath: executable)).finish()
        guard run.status == 0 else {
            let serverLog = (try? String(contentsOfFile: "\(folder)/log", encoding: .utf8)).map { "\nserver log:\n\($0.suffix(2000))" } ?? ""
            throw PostgresTestServerError(
                description: "\(executable) \(arguments.joined(separator: " ")) failed (\(run.status)): \(run.output)\(run.error)\(serverLog)")
        }
    }
}

/// The test cluster could not be made or started.
public struct PostgresTestServerError: Error, CustomStringConvertible {
    public let description: String
}

extension String {
    fileprivate func appendLine(to path: String) throws {
        guard let handle = FileHandle(forWritingAtPath: path) else { throw PostgresTestServerError(description: "cannot write \(path)") }
        defer { try? handle.close() }
        handle.seekToEndOfFile()
        handle.write(Data(("\n" + self + "\n").utf8))
    }
}
