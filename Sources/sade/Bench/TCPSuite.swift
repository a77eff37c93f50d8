import Foundation
import SADEProcess
import SADEACL
import SADECore
import SADENet

/// `tcp`: request / inform between two processes over loopback TCP — our agents
/// here, the `echo` agent of a `sade platform` started as a second process.
struct TCPSuite: BenchSuite {
    let name = "tcp"
    let workload = """
        request/inform with the echo agent of a second process (sade platform) over loopback TCP; baseline: raw socket ping-pong; \
        then the same over mutual TLS (certificates made with openssl), against the plain figures
        """

    func run(in context: BenchContext) async throws -> [BenchFigure] {
        let peer = try ChildProcess(ChildProcess.sade, ["platform", "--name", "bench-peer", "--port", "0"], errors: .discarded)
        defer { peer.terminate() }
        guard let line = await peer.line(containing: "listening on "), let address = line.split(separator: " ").last else {
            throw BenchError.peerFailed("sade platform did not start listening")
        }
        let echo = AgentIdentifier(name: "echo@bench-peer", addresses: [String(address)])
        let single = context.size(20_000, quick: 300)
        let (pingers, window, perPinger) = context.quick ? (2, 8, 200) : (4, 128, 50_000)
        let one = try await context.measure { try await Self.exchange(with: echo, pingers: 1, window: 1, roundTrips: single) }
        let many = try await context.measure {
            try await Self.exchange(with: echo, pingers: pingers, window: window, roundTrips: perPinger)
        }
        let request: [UInt8] = try ACLStringCodec().encode(ACLMessage(.request, sender: "ping0@bench-tcp", receivers: [echo]))
        let frame = request.count + 64
        let raw = try await context.measure { try RawSocketPingPong.run(roundTrips: single, frameBytes: frame) }
        let bare = "raw socket ping-pong"
        peer.terminate()
        _ = await peer.finish()
        var figures = [
            context.figure("messages/s, 1 pair", one["rate"], unit: "msg/s", baseline: raw["rate"], baselineName: bare),
            context.figure("round trip p50, 1 pair", one["p50"], unit: "µs", baseline: raw["p50"], baselineName: bare, target: "≤ 150"),
            context.figure("round trip p99, 1 pair", one["p99"], unit: "µs", baseline: raw["p99"], baselineName: bare),
            context.figure(
                "messages/s, \(pingers) agents × \(window) in flight", many["rate"], unit: "msg/s", baseline: raw["rate"],
                baselineName: bare, target: "≥ 100,000"),
        ]
        // The same over mutual TLS, against the plain figures of this run (needs openssl for the certificates).
        guard let certificates = await BenchCertificates.make() else { return figures }
        defer { certificates.remove() }
        guard let peerTLS = await certificates.tls(for: "bench-peer"), let ownTLS = await certificates.tls(for: "bench-tcp") else { return figures }
        let securePeer = try ChildProcess(
            ChildProcess.sade, ["platform", "--name", "bench-peer", "--port", "0"] + certificates.arguments(for: peerTLS), errors: .discarded)
        defer { securePeer.terminate() }
        guard let secureLine = await securePeer.line(containing: "listening on "), let secureAddress = secureLine.split(separator: " ").last else {
            throw BenchError.peerFailed("sade platform with TLS did not start listening")
        }
        let secureEcho = AgentIdentifier(name: "echo@bench-peer", addresses: [String(secureAddress)])
        let oneTLS = try await context.measure {
            try await Self.exchange(with: secureEcho, pingers: 1, window: 1, roundTrips: single, tls: ownTLS)
        }
        let manyTLS = try await context.measure {
            try await Self.exchange(with: secureEcho, pingers: pingers, window: window, roundTrips: perPinger, tls: ownTLS)
        }
        securePeer.terminate()
        _ = await securePeer.finish()
        let plain = "plain TCP, this run"
        figures += [
            context.figure("messages/s, 1 pair, mutual TLS", oneTLS["rate"], unit: "msg/s", baseline: one["rate"], baselineName: plain),
            context.figure("round trip p50, 1 pair, mutual TLS", oneTLS["p50"], unit: "µs", baseline: one["p50"], baselineName: plain),
            context.figure(
                "messages/s, \(pingers) agents × \(window) in flight, mutual TLS", manyTLS["rate"], unit: "msg/s", baseline: many["rate"],
                baselineName: plain),
        ]
        return figures
    }

    /// One run: `pingers` agents on a platform of their own with a TCP transport, each
    /// keeping `window` requests in flight to the echo until `roundTrips` answers came.
    private static func exchange(
        with echo: AgentIdentifier, pingers: Int, window: Int, roundTrips: Int, tls: PlatformTLS? = nil
    ) async throws -> [String: Double] {
        let platform = Environment(name: "bench-tcp")
        let transport = try await TCPTransport.start(
            for: platform, configuration: TCPTransport.Configuration(host: "127.0.0.1", port: 0, tls: tls))
        let done = Countdown(pingers)
        var agents: [Agent] = []
        var counters: [ExchangeCounter] = []
        for index in 0..<pingers {
            let counter = ExchangeCounter(roundTrips, recordsLatency: window == 1)
            let agent = Agent("ping\(index)", on: platform) {
                MessageHandler.on(.inform) { agent, message in
                    let left = counter.answeredLeaving()
                    if left == 0 { return done.tick() }
                    guard left >= window else { return }
                    counter.sending()
                    agent.send(message.makeReply(.request))
                }
                MessageHandler.on(.failure) { _, message in
                    done.abort("delivery failure: \(message.userDefined["X-failure-reason"] ?? "?") \(message.content ?? "")")
                }
            }
            try await agent.start()
            agents.append(agent)
            counters.append(counter)
        }
        let seconds = try await BenchClock.seconds {
            for (agent, counter) in zip(agents, counters) {
                for _ in 0..<window {
                    counter.sending()
                    agent.send(ACLMessage(.request, receivers: [echo]))
                }
            }
            try await done.wait()
        }
        for agent in agents { await agent.stop() }
        await transport.shutdown()
        await platform.shutdown()
        let latency = Percentiles(counters.flatMap(\.latencies))
        return ["rate": Double(2 * pingers * roundTrips) / seconds, "p50": latency.p50, "p99": latency.p99]
    }
}
