import ArgumentParser
import Foundation
import Synchronization
import Hummingbird
import Logging
import SADEHealth
import SADEExamples
import SADEHealthPostgres
import SADEIssueTrack
import SADEMonitoring
import SADENotification
import SADEPostgres
import SADEServer
import ServiceLifecycle

/// `sade serve`: the remote patient monitoring server — HTTP API, agents and the
/// embedded SQLite store — until SIGINT or SIGTERM.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the remote patient monitoring server (HTTP API, agents, embedded SQLite store).",
        discussion: """
            --demo seeds an empty data directory with a demo hospital, its staff (password sade-demo) and twelve \
            patients with simulated monitors, and an `echo` agent on the monitoring platform (for the dashboard's \
            message form). Stops cleanly on SIGINT or SIGTERM.
            """
    )

    @Option(help: "The interface to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0: any free port).")
    var port = 8080

    @Option(help: "The data directory (SQLite databases).")
    var data = "./sade-data"

    @Option(help: """
        Keep the health store (samples, clinical registry), accounts, device tokens, alerts and notifications in this \
        PostgreSQL database, postgres://user:password@host:port/database (default: SADE_DATABASE_URL, else SQLite in the \
        data directory). Several nodes may share it: any accepts samples; each evaluates the patients of its share of \
        16 shards (leases), one runs the simulators, home agents and issue track office.
        """)
    var database: String?

    @Option(help: "This node's name among several on one database (default: host name and process id).")
    var node: String?

    @Option(help: "Seconds a node's leases last unrenewed: a dead node's patients are evaluated by the others within it.")
    var evaluationLease = 10

    @Flag(help: "Seed a demo hospital, staff and simulated patients (into an empty data directory).")
    var demo = false

    @OptionGroup(title: "E-mail alerts")
    var mail: SMTPOptions

    @OptionGroup(title: "Push notifications (Web Push)")
    var push: PushOptions

    @OptionGroup(title: "The issue track")
    var issueTrackOptions: IssueTrackOptions

    @Option(help: "POST every notification to this URL as a signed webhook.")
    var webhook: String?

    @Option(help: "The webhook's HMAC-SHA256 secret.")
    var webhookSecret: String?

    @Option(help: "The secret that signs login tokens (default: SADE_TOKEN_SECRET, else one kept in --database for every node, else random per run).")
    var tokenSecret: String?

    @Option(
        name: .customLong("trusted-proxy"),
        help: "The address of a proxy in front of this node (e.g. nginx), whose X-Forwarded-For names the client; repeat for several.")
    var trustedProxies: [String] = []

    @Option(name: .customLong("tls-cert"), help: "A PEM file with the server's certificate (then its chain): serve HTTPS only, with HSTS.")
    var tlsCertificate: String?

    @Option(name: .customLong("tls-key"), help: "The PEM file of the certificate's private key.")
    var tlsKey: String?

    @Option(help: "With --tls-cert: a plain-HTTP port that redirects every request to HTTPS (308).")
    var httpRedirectPort: Int?

    @Option(help: "The largest request body accepted, in bytes.")
    var maxBodyBytes = 1 << 20

    @Option(help: "Requests per second each client may make on average before getting 429.")
    var rateLimit = 200.0

    @Option(help: "Days the homes' sensor events are kept (their hourly statistics stay); 0 keeps them all.")
    var homeRetentionDays = 365

    @Option(help: "Days samples are kept (older ones are purged hourly in the background); 0 keeps them all.")
    var retainDays = 0

    @Option(help: """
        Seal names, dates of birth and contact details with the keys in this file (AES-GCM) before they are stored; \
        sade keys new makes one, sade keys rotate replaces its key.
        """)
    var dataKeyFile: String?

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0…65535") }
        guard maxBodyBytes > 0 else { throw ValidationError("--max-body-bytes must be positive") }
        guard (tlsCertificate == nil) == (tlsKey == nil) else { throw ValidationError("--tls-cert and --tls-key go together") }
        if let httpRedirectPort {
            guard tlsCertificate != nil else { throw ValidationError("--http-redirect-port redirects to HTTPS: it needs --tls-cert and --tls-key") }
            guard (0...65_535).contains(httpRedirectPort) else { throw ValidationError("--http-redirect-port must be 0…65535") }
        }
        guard rateLimit > 0, rateLimit.isFinite else { throw ValidationError("--rate-limit must be a positive number") }
        guard homeRetentionDays >= 0 else { throw ValidationError("--home-retention-days must be 0 or more") }
        guard retainDays >= 0 else { throw ValidationError("--retain-days must be 0 or more") }
        guard evaluationLease >= 3 else { throw ValidationError("--evaluation-lease must be at least 3 seconds") }
        for proxy in trustedProxies where !MonitoringServer.isIPAddress(proxy) {
            throw ValidationError("--trusted-proxy \(proxy.prefix(60).debugDescription) is not an IP address")
        }
        if let url = databaseURL {
            do { _ = try PostgresLocation(url: url) } catch { throw ValidationError("\(error)") }
        }
        if let secret = tokenSecret ?? ProcessInfo.processInfo.environment["SADE_TOKEN_SECRET"],
            secret.utf8.count < TokenIssuer.minimumSecretBytes
        {
            throw ValidationError("the token secret must be at least \(TokenIssuer.minimumSecretBytes) bytes")
        }
    }

    /// What `make` returns; if it throws, the system is shut down and the error is told
    /// as the command's (e.g. TLS files that do not fit).
    private func orShutDown<Value>(_ system: MonitoringSystem, _ make: () throws -> Value) async throws -> Value {
        do {
            return try make()
        } catch {
            await system.shutdown()
            throw ValidationError("\(error)")
        }
    }

    /// The server's TLS, when asked for.
    var tls: ServerTLS? {
        guard let tlsCertificate, let tlsKey else { return nil }
        return ServerTLS(certificateFile: tlsCertificate, keyFile: tlsKey)
    }

    func run() async throws {
        CommandLogging.bootstrapped
        ServerMetrics.bootstrap()  // everything measured from here on is shown at /metrics
        let logger = Logger(label: "sade.serve")
        let shared = try await openSharedStores()
        var dataKeys: DataKeyRing?
        if let dataKeyFile {
            do { dataKeys = try DataKeyRing(fileAt: dataKeyFile) } catch { throw ValidationError("\(error)") }
        }
        let system = try await openSystem(.init(
            dataDirectory: data, smtp: mail.configuration(), webhookURL: webhook, webhookSecret: webhookSecret,
            push: try await push.configuration(dataDirectory: data, shared: shared?.pool),
            homeEventRetention: homeRetentionDays > 0 ? .seconds(homeRetentionDays * 86_400) : nil,
            sampleRetention: retainDays > 0 ? .seconds(retainDays * 86_400) : nil, dataKeys: dataKeys, healthStore: shared?.health,
            postgres: shared?.pool, nodeName: node ?? MonitoringSystem.defaultNodeName, evaluationLease: .seconds(evaluationLease)))
        if demo {
            // Nodes started together on one database seed it once: the others wait, then find it seeded.
            let (seeded, homes) = try await system.oneNodeAtATime("sade demo seed") {
                (try await DemoHospital.seed(system), try await DemoHomes.seed(system))
            }
            say(seeded ? "demo: seeded \(data) with the demo hospital" : "demo: \(data) already has data; not seeding")
            try await DemoHospital.startMonitors(system)
            if homes { say("demo: seeded \(DemoHomes.flats.count) flats with \(DemoHomes.historyDays) days of sensor history") }
            printDemoAccounts()
        }
        let (issueTrack, officeCalls) = try await openIssueTrack(system, pool: shared?.pool)
        var secret = tokenSecret ?? ProcessInfo.processInfo.environment["SADE_TOKEN_SECRET"]
        if secret == nil, let pool = shared?.pool { secret = try await Self.sharedTokenSecret(pool) }
        let server = await MonitoringServer(
            system: system,
            configuration: ServerConfiguration(
                host: host, port: port, maxBodyBytes: maxBodyBytes, requestsPerSecond: rateLimit, requestBurst: rateLimit * 2,
                tokenSecret: secret,
                dashboardDirectory: ProcessInfo.processInfo.environment["SADE_DASHBOARD_DIR"].map { URL(fileURLWithPath: $0) },
                trustedProxies: Set(trustedProxies), tls: tls),
            issueTrack: issueTrack)
        let host = host
        let scheme = tls == nil ? "http" : "https"
        let boundPort = BoundPort(port)
        let application = try await orShutDown(system) {
            try server.makeApplication(logger: Logger(label: "sade.server")) { port in
                boundPort.set(port)
                say("SADE monitoring server listening on \(scheme)://\(host):\(port)")
                say("dashboard: open \(scheme)://\(host):\(port)/ in a browser")
            }
        }
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
            .init(service: MonitoringSystemService(system: system)), .init(service: application),
        ]
        if let httpRedirectPort {
            services.append(.init(service: Application(
                responder: HTTPSRedirectResponder { boundPort.value },
                configuration: .init(address: .hostname(host, port: httpRedirectPort), serverName: "sade"),
                onServerRunning: { channel in say("redirecting http://\(host):\(channel.localAddress?.port ?? 0) to HTTPS") },
                logger: Logger(label: "sade.redirect"))))
        }
        await officeCalls?.start()  // before the system takes the lease: the office's calls are heard from the start
        let company: Company
        do {
            try await system.start()
            if demo {
                try await DemoHomes.startLive(system)
                // Someone on the monitoring platform for the dashboard's message form to talk to.
                try await DiagnosticAgents.echo(on: system.platform).start()
            }
            if officeCalls == nil { try await issueTrack.start() }  // alone; else on the node running the singletons. Stops what it started if it fails
            company = try await issueTrack.company()
        } catch {
            await issueTrack.shutdown()
            await officeCalls?.stop()
            await system.shutdown()
            throw error
        }
        let office = officeCalls == nil ? "on platform company" : "its office on the node running the singletons"
        say("issue track: \(company.employees.count) employee(s), \(company.services.count) service(s), \(office)")
        let group = ServiceGroup(
            configuration: .init(
                services: services,
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        do {
            try await group.run()
        } catch {
            await issueTrack.shutdown()
            await officeCalls?.stop()
            throw error
        }
        await issueTrack.shutdown()
        await officeCalls?.stop()
        say("stopped")
    }

    /// Prints a line at once, even when standard output is a pipe or a file.
    fileprivate func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    private func printDemoAccounts() {
        say("demo accounts (password \(DemoHospital.password)):")
        for member in DemoHospital.staff {
            let sectors = member.worker.map { $0.sectors.sorted().joined(separator: ", ") } ?? "all"
            say("  \(member.account.username.padding(toLength: 8, withPad: " ", startingAt: 0)) \(member.account.role.rawValue), \(sectors)")
        }
        for relative in DemoHospital.relatives {
            let of = relative.relativeOf.map(\.rawValue).joined(separator: ", ")
            say("  \(relative.username.padding(toLength: 8, withPad: " ", startingAt: 0)) relative of \(of)")
        }
    }
}

extension ServeCommand {
    /// `--database`, else `SADE_DATABASE_URL`.
    var databaseURL: String? {
        database ?? ProcessInfo.processInfo.environment["SADE_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The stores kept in PostgreSQL when a database is given (connected and migrated):
    /// the health store, and accounts with device tokens; `nil` for SQLite in the data
    /// directory.
    ///
    /// - Throws: exit code 69 (`EX_UNAVAILABLE`) after saying why when the server
    ///   cannot be reached; 1 when it answers but its schema cannot be made.
    func openSharedStores() async throws -> (health: any HealthStore & ClinicalRegistry, pool: PostgresPool)? {
        guard let url = databaseURL else { return nil }
        let location = try PostgresLocation(url: url)
        do {
            let pool = try await PostgresPool.connect(location)
            let health = try await PostgresHealthStore(pool)
            say("health store, accounts, alerts, notifications, homes, wearable data and the issue track: PostgreSQL at \(location)")
            return (health, pool)
        } catch let failure as PostgresFailure where failure.isUnavailable {
            throw Self.unavailable(failure.description)
        } catch {
            FileHandle.standardError.write(Data("error: sade serve: cannot use the database at \(location): \(error)\n".utf8))
            throw ExitCode.failure
        }
    }

    /// Opens the monitoring system; a database that cannot be reached exits with 69.
    func openSystem(_ configuration: MonitoringSystem.Configuration) async throws -> MonitoringSystem {
        do {
            return try await MonitoringSystem(configuration: configuration)
        } catch {
            guard case .unavailable(let reason) = error else { throw error }
            throw Self.unavailable(reason)
        }
    }

    /// The secret every node on the database signs login tokens with, unless told
    /// another: made at random by the first node, kept in `sade_secret`, so that a token
    /// one node issued is good on all.
    static func sharedTokenSecret(_ pool: PostgresPool) async throws -> String {
        var generator = SystemRandomNumberGenerator()
        let fresh = Data((0..<48).map { _ in UInt8.random(in: .min ... .max, using: &generator) }).base64EncodedString()
        return try await sharedSecret("token", fresh: fresh, pool)
    }

    /// The secret `name` every node on `pool`'s database shares: `fresh` if this node is
    /// the first to ask, else the one the first stored.
    static func sharedSecret(_ name: String, fresh: String, _ pool: PostgresPool) async throws -> String {
        try await pool.migrate("secrets", [.init("v1-secrets", "CREATE TABLE sade_secret (name TEXT PRIMARY KEY, value TEXT NOT NULL);")])
        let rows = try await pool.query(
            """
            INSERT INTO sade_secret (name, value) VALUES (\(name), \(fresh))
            ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name RETURNING value
            """)
        guard let secret = try rows.first?.decode(String.self) else { throw PostgresFailure(message: "no \(name) secret in sade_secret") }
        return secret
    }

    /// Says that the database cannot be reached; the exit code is 69 (EX_UNAVAILABLE).
    static func unavailable(_ reason: String) -> ExitCode {
        FileHandle.standardError.write(Data("error: sade serve: the database is unavailable: \(reason)\n".utf8))
        return ExitCode(69)
    }
}

/// The port the server bound, once known (`--port 0` picks one), for the redirect port.
final class BoundPort: Sendable {
    private let port: Atomic<Int>

    init(_ port: Int) { self.port = Atomic(port) }

    var value: Int { port.load(ordering: .acquiring) }

    func set(_ value: Int) { port.store(value, ordering: .releasing) }
}
