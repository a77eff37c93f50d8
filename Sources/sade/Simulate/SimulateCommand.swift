import ArgumentParser
import AsyncHTTPClient
import NIOSSL
import Foundation
import SADEMonitoring

/// `sade simulate`: emulated devices posting to a running server through its real
/// API, with a progress bar and a summary.
struct SimulateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Emulate patient monitors or wearables posting to a running sade serve.",
        discussion: """
            monitor: logs in as an admin (default admin / sade-demo), admits N new patients (sim-RUN-1 …) to the first \
            sector, issues each a device token, posts their vital signs, and revokes the tokens at the end. watch, esp32: register N wearable users and post exactly those clients' data items. \
            Exits 1 when nothing was accepted.
            """
    )

    /// How the simulated patients evolve.
    enum Scenario: String, ExpressibleByArgument, CaseIterable {
        case normal, deteriorating, mixed

        func profile(forDevice index: Int) -> VitalSignSimulator.Profile {
            switch self {
            case .normal: .normal
            case .deteriorating: .deteriorating
            case .mixed: [.normal, .deteriorating, .noisy, .droppingOut][index % 4]
            }
        }
    }

    /// Which client is emulated.
    enum Profile: String, ExpressibleByArgument, CaseIterable {
        case monitor, watch, esp32
    }

    @Option(help: "The server's base URL.")
    var server = "http://127.0.0.1:8080"

    @Option(help: "How many devices (patients).")
    var patients = 4

    @Option(help: "The device kind: monitor, watch or esp32.")
    var profile: Profile = .monitor

    @Option(help: "Seconds between two posts of a device, e.g. 5 or 5s.", transform: SimulateCommand.seconds)
    var interval: Double = 5

    @Option(help: "How long to run, e.g. 60 or 60s or 2m.", transform: SimulateCommand.seconds)
    var duration: Double = 60

    @Option(help: "normal, deteriorating or mixed.")
    var scenario: Scenario = .mixed

    @Option(help: "The account that lists patients and issues device tokens (monitor).")
    var username = "admin"

    @Option(help: "Its password.")
    var password = "sade-demo"

    @Option(help: "Seed of the simulated values.")
    var seed: UInt64 = 1

    @Flag(help: "No progress bar.")
    var quiet = false

    @Option(help: "A PEM file of the certificate authority to trust for an https:// server (e.g. a test CA); the system's otherwise.")
    var caFile: String?

    /// The shared client, or one that trusts `--ca-file`.
    private func makeClient() throws -> HTTPClient {
        guard let caFile else { return .shared }
        var tls = TLSConfiguration.makeClientConfiguration()
        do {
            tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(caFile))
        } catch {
            throw ValidationError("cannot read --ca-file \(caFile): \(error)")
        }
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(tlsConfiguration: tls))
    }

    func validate() throws {
        guard (1...10_000).contains(patients) else { throw ValidationError("--patients must be 1…10000") }
        guard interval > 0 else { throw ValidationError("--interval must be positive") }
        guard duration > 0 else { throw ValidationError("--duration must be positive") }
        guard URL(string: server)?.host != nil else { throw ValidationError("--server must be a URL such as http://127.0.0.1:8080") }
    }

    func run() async throws {
        let client = try makeClient()
        do {
            try await simulate(with: client)
        } catch {
            if client !== HTTPClient.shared { try? await client.shutdown() }
            throw error
        }
        if client !== HTTPClient.shared { try? await client.shutdown() }
    }

    private func simulate(with client: HTTPClient) async throws {
        let http = SimulatorHTTP(server: server.hasSuffix("/") ? String(server.dropLast()) : server, client: client)
        let start = Date()
        let run = String(UInt32(truncatingIfNeeded: UInt64(start.timeIntervalSince1970 * 1000)), radix: 36)
        let (devices, cleanUp) = try await prepareDevices(http, start: start, run: run)
        let runStart = Date()  // logging in and registering devices take a while (bcrypt)
        print("simulating \(devices.count) \(profile.rawValue) device(s), \(scenario.rawValue), every \(interval) s for \(duration) s against \(http.server)")
        let progress = SimulationProgress(duration: duration, drawsBar: !quiet)
        await withTaskGroup(of: Void.self) { group in
            for (index, device) in devices.enumerated() {
                group.addTask {
                    // Spread the devices over the interval so they do not all post at once.
                    try? await Task.sleep(for: .seconds(interval * Double(index) / Double(devices.count)))
                    var tick = 0
                    while Date().timeIntervalSince(runStart) < duration {
                        do {
                            if let answer = try await device(Date(), http) {
                                progress.record(status: answer.status, error: answer.isSuccess ? nil : answer.errorMessage)
                            }
                        } catch {
                            progress.record(status: nil, error: "\(error)")
                        }
                        tick += 1
                        let next = runStart.addingTimeInterval(interval * Double(tick) + interval * Double(index) / Double(devices.count))
                        try? await Task.sleep(for: .seconds(max(0, next.timeIntervalSinceNow)))
                    }
                }
            }
            group.addTask {
                while Date().timeIntervalSince(runStart) < duration {
                    progress.draw()
                    try? await Task.sleep(for: .milliseconds(500))
                }
            }
        }
        progress.finish()
        await cleanUp()
        let alerts = (try? await alertsSeen(http, since: start, run: run)) ?? 0
        let counts = progress.counts.withLock { $0 }
        print("sent \(counts.sent), accepted \(counts.accepted), rejected \(counts.rejected), failed \(counts.failed), alerts seen \(alerts)")
        if let last = counts.lastError { print("last error: \(last)") }
        if counts.accepted == 0 { throw ExitCode(1) }
    }

    /// One closure per device: posts its next reading, or returns `nil` when silent.
    typealias Device = @Sendable (Date, SimulatorHTTP) async throws -> SimulatorHTTP.Answer?

    private func prepareDevices(_ http: SimulatorHTTP, start: Date, run: String) async throws -> ([Device], @Sendable () async -> Void) {
        switch profile {
        case .monitor:
            let monitors = try await MonitorEmulator.prepare(
                http, username: username, password: password, count: patients, scenario: scenario, seed: seed, start: start,
                duration: duration, run: run)
            let (username, password) = (username, password)
            let cleanUp: @Sendable () async -> Void = {
                guard let admin = try? await MonitorEmulator.login(http, username: username, password: password) else { return }
                for monitor in monitors { try? await monitor.revoke(via: http, adminToken: admin) }
            }
            return (monitors.map { monitor in { date, http in try await monitor.post(at: date, via: http) } }, cleanUp)
        case .watch, .esp32:
            let wearables = try await WearableEmulator.prepare(
                http, kind: profile, count: patients, scenario: scenario, seed: seed, start: start, duration: duration, run: run)
            return (wearables.map { wearable in { date, http in try await wearable.post(at: date, via: http) } }, {})
        }
    }

    /// Alerts raised since `start` about this run's patients (`sim-RUN-…`, or the
    /// wearable users' records `wearable-sim-…-RUN-…`).
    private func alertsSeen(_ http: SimulatorHTTP, since start: Date, run: String) async throws -> Int {
        let token = try await MonitorEmulator.login(http, username: username, password: password)
        let answer = try await http.send(.GET, "/api/v1/alerts?status=all", token: token)
        let alerts = answer.json as? [[String: Any]] ?? []
        return alerts.filter { alert in
            guard let patient = alert["patient"] as? String, patient.contains("-\(run)-"),
                let raised = (alert["raisedAt"] as? String).flatMap({ try? Date($0, strategy: .iso8601) })
            else { return false }
            return raised >= start.addingTimeInterval(-1)
        }.count
    }

    static func seconds(_ text: String) throws -> Double {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600]
        let value: Double? =
            if let last = text.last, let unit = units[last] { Double(text.dropLast()).map { $0 * unit } } else { Double(text) }
        guard let value, value.isFinite, value > 0 else { throw ValidationError("'\(text)' is not a duration such as 5, 5s, 2m") }
        return value
    }
}
