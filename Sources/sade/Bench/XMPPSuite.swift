import Foundation
import SADEProcess
import SADEACL
import SADECore
import SADEExamples
import SADENet

/// `xmpp`: request/inform round trips, one at a time, over one Prosody on loopback
/// (STARTTLS, SCRAM), between SADE agents (each its own XMPP session), from a SADE
/// agent to a SPADE 4.1.4 one and back, against SPADE↔SPADE measured in the same run —
/// every agent a session of its own, every message through the server. On demand: it
/// needs `prosody`, `openssl`, and SPADE (the peers' virtualenv, or `SADE_BENCH_PYTHON`).
struct XMPPSuite: BenchSuite {
    let name = "xmpp"
    let workload = "request/inform round trips over one Prosody (TLS): SADE→SADE, SADE→SPADE, SPADE→SADE, against SPADE→SPADE"
    var isOnDemand: Bool { true }

    func run(in context: BenchContext) async throws -> [BenchFigure] {
        let roundTrips = context.size(2_000, quick: 30)
        let server = try await BenchXMPPServer.start()
        defer { server.stop() }
        let python = try await PeerRunner.preparedPython()
        let script = PeerRunner.scripts + "/spade_xmpp.py"

        // Ours: `ping` and `pong` on two platforms of this process, each logged in as
        // itself: a request to pong@localhost goes out through the server and comes back.
        let (pinging, ponging) = (Environment(name: "bench-a"), Environment(name: "bench-b"))
        let pingSession = try await XMPPTransport.start(for: pinging, configuration: server.configuration(password: "bench"), agents: ["ping"])
        let pongSession = try await XMPPTransport.start(for: ponging, configuration: server.configuration(password: "bench"), agents: ["pong"])
        let pong = DiagnosticAgents.echo(on: ponging, named: "pong")
        let ping = Agent("ping", on: pinging) {}
        let spadeEcho = try ChildProcess(python, [script, "echo", "\(server.port)", "spade-echo@localhost"], errors: .discarded)
        defer { spadeEcho.terminate() }
        let figures: [String: [String: BenchStatistic]]
        do {
            try await pong.start()
            try await ping.start()
            guard await spadeEcho.line(containing: "ready") != nil else { throw BenchError.peerFailed("the SPADE echo agent did not log in") }
            let ours = AgentIdentifier(name: "pong@localhost", addresses: ["xmpp://pong@localhost"])
            let theirs = AgentIdentifier(name: "spade-echo@localhost", addresses: ["xmpp://spade-echo@localhost"])
            figures = [
                "sade-sade": try await context.measure { try await Self.roundTrips(from: ping, to: ours, count: roundTrips) },
                "sade-spade": try await context.measure { try await Self.roundTrips(from: ping, to: theirs, count: roundTrips) },
                "spade-sade": try await context.measure {
                    try await Self.spadePing(python, script, server, to: "pong@localhost", count: roundTrips)
                },
                "spade-spade": try await context.measure {
                    try await Self.spadePing(python, script, server, to: "spade-echo@localhost", count: roundTrips)
                },
            ]
        } catch {
            await Self.stop([ping, pong], [(pingSession, pinging), (pongSession, ponging)])
            throw error
        }
        await Self.stop([ping, pong], [(pingSession, pinging), (pongSession, ponging)])
        let (sadeToSade, sadeToSpade, spadeToSade, spadeToSpade) =
            (figures["sade-sade"]!, figures["sade-spade"]!, figures["spade-sade"]!, figures["spade-spade"]!)

        let spade = "SPADE → SPADE, same server"
        return [
            context.figure("round trip p50, SADE → SADE", sadeToSade["p50_us"], unit: "µs", baseline: spadeToSpade["p50_us"], baselineName: spade),
            context.figure("round trip p50, SADE → SPADE", sadeToSpade["p50_us"], unit: "µs", baseline: spadeToSpade["p50_us"], baselineName: spade),
            context.figure("round trip p50, SPADE → SADE", spadeToSade["p50_us"], unit: "µs", baseline: spadeToSpade["p50_us"], baselineName: spade),
            context.figure("round trip p99, SADE → SADE", sadeToSade["p99_us"], unit: "µs", baseline: spadeToSpade["p99_us"], baselineName: spade),
            context.figure(
                "round trips/s, SADE → SADE", sadeToSade["round_trips_per_s"], unit: "/s", baseline: spadeToSpade["round_trips_per_s"],
                baselineName: spade),
            context.figure(
                "round trips/s, SADE → SPADE", sadeToSpade["round_trips_per_s"], unit: "/s", baseline: spadeToSpade["round_trips_per_s"],
                baselineName: spade),
        ]
    }

    /// Stops the agents, then logs the platforms out.
    private static func stop(_ agents: [Agent], _ transports: [(XMPPTransport, Environment)]) async {
        for agent in agents { await agent.stop() }
        for (transport, platform) in transports { await transport.shutdown(from: platform) }
    }

    /// `count` requests from `agent` to `peer`, each awaited before the next, after 20
    /// unmeasured: their p50, p99 and rate.
    private static func roundTrips(from agent: Agent, to peer: AgentIdentifier, count: Int) async throws -> [String: Double] {
        var latencies: [Double] = []
        latencies.reserveCapacity(count)
        let clock = ContinuousClock()
        var started = clock.now
        for index in 0..<(20 + count) {
            if index == 20 { started = clock.now }
            let sent = clock.now
            _ = try await agent.request(to: peer, content: "ping", timeout: .seconds(30))
            if index >= 20 { latencies.append((clock.now - sent).microseconds) }
        }
        let seconds = (clock.now - started).seconds
        latencies.sort()
        return [
            "p50_us": latencies[latencies.count / 2], "p99_us": latencies[min(latencies.count - 1, latencies.count * 99 / 100)],
            "round_trips_per_s": Double(count) / seconds,
        ]
    }

    /// A SPADE agent of its own process pinging `jid` `count` times: its p50, p99 and rate.
    private static func spadePing(_ python: URL, _ script: String, _ server: BenchXMPPServer, to jid: String, count: Int) async throws -> [String: Double] {
        let pinger = try ChildProcess(
            python, [script, "ping", "\(server.port)", "spade-ping-\(UUID().uuidString.prefix(8).lowercased())@localhost", jid, "\(count)"],
            errors: .discarded)
        let (status, output, _) = await pinger.finish()
        guard status == 0, let line = output.split(separator: "\n").last,
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        else { throw BenchError.peerFailed("the SPADE pinger exited with \(status): \(output.suffix(300))") }
        return object.compactMapValues { ($0 as? NSNumber)?.doubleValue }
    }
}

/// The bench's XMPP server: Prosody for `localhost` on a free loopback port, its
/// certificate signed by a throw-away CA, registration open, nothing stored offline.
struct BenchXMPPServer {
    let port: Int
    private let process: ChildProcess
    private let certificates: BenchCertificates
    private let authority: String

    static func start() async throws -> BenchXMPPServer {
        guard let prosody = BenchXMPPServer.locate("prosody") else {
            throw BenchError.peerFailed("the xmpp suite needs Prosody (apt-get install prosody)")
        }
        guard let certificates = await BenchCertificates.make(), let tls = await certificates.tls(for: "localhost") else {
            throw BenchError.peerFailed("the xmpp suite needs openssl for the server's certificate")
        }
        let directory = certificates.directory.path
        try FileManager.default.createDirectory(atPath: directory + "/data", withIntermediateDirectories: true)
        // Prosody binds the port it is told: one free a moment ago, another if it was taken meanwhile.
        for _ in 1...5 {
            let port = try freePort()
            let configuration = ProsodyConfiguration.text(directory: directory, port: port, certificate: tls.certificateFile, key: tls.keyFile)
            try Data(configuration.utf8).write(to: URL(fileURLWithPath: directory + "/prosody.cfg.lua"))
            let process = try ChildProcess(URL(fileURLWithPath: prosody), ["-F", "--config", directory + "/prosody.cfg.lua"], errors: .discarded)
            let server = BenchXMPPServer(port: port, process: process, certificates: certificates, authority: tls.certificateAuthorityFile)
            let ready = ProsodyConfiguration.readyLine(port: port)
            let line = await process.line(containingAny: [ready, "Failed to open server port"])
            if line?.contains(ready) == true { return server }
            await process.stop()
            guard line != nil else { break }
        }
        certificates.remove()
        throw BenchError.peerFailed("Prosody did not start listening")
    }

    /// The transport configuration of agents logging in here with `password`.
    func configuration(password: String) -> XMPPTransport.Configuration {
        XMPPTransport.Configuration(
            host: "127.0.0.1", port: port, domain: "localhost", password: password, register: true, trust: .authorities(file: authority))
    }

    /// Stops Prosody and removes its files.
    func stop() {
        process.terminate()
        certificates.remove()
    }

    /// The executable `name` on the PATH, if any.
    static func locate(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// A loopback port nothing listens on (bound and released at once).
    private static func freePort() throws -> Int {
        let socket = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        guard bound else { throw BenchError.unexpected("no free loopback port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
