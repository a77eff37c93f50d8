import Metrics
import Prometheus
import SADEACL
import SADECore
import SADEServer

/// `pingpong`: pairs of agents exchanging ACL request / inform through the platform,
/// against the same exchange as direct calls between bare actors.
struct PingPongSuite: BenchSuite {
    let name = "pingpong"
    let workload = "N agent pairs (1 and 1,000) exchanging request/inform in one process; baseline: bare actors, a task per message"

    func run(in context: BenchContext) async throws -> [BenchFigure] {
        let single = context.size(100_000, quick: 2_000)
        let (pairs, perPair) = context.quick ? (100, 20) : (1_000, 1_000)
        let one = try await context.measure { try await Self.agents(pairs: 1, roundTrips: single, recordsLatency: true) }
        let bareOne = try await context.measure { try await Self.bareActors(pairs: 1, roundTrips: single, recordsLatency: true) }
        let direct = try await context.measure { await Self.awaitedCalls(roundTrips: single) }
        let many = try await context.measure { try await Self.agents(pairs: pairs, roundTrips: perPair, recordsLatency: false) }
        // What counting every delivery costs: the same runs with the platform's metrics in
        // a Prometheus registry (what `sade serve` bootstraps) instead of swift-metrics' no-op.
        let prometheus = { ServerMetrics.factory(PrometheusCollectorRegistry()) }
        let measuredOne = try await context.measure {
            try await Self.agents(pairs: 1, roundTrips: single, recordsLatency: true, metrics: prometheus())
        }
        let measuredMany = try await context.measure {
            try await Self.agents(pairs: pairs, roundTrips: perPair, recordsLatency: false, metrics: prometheus())
        }
        let bareMany = try await context.measure { try await Self.bareActors(pairs: pairs, roundTrips: perPair, recordsLatency: false) }
        // What the dashboard's sniffer costs while it watches: every message of the one
        // pair copied to a reader; among 1,000 pairs, one pair watched (every message checked).
        let sniffedOne = try await context.measure {
            try await Self.agents(pairs: 1, roundTrips: single, recordsLatency: true, sniffing: ["ping0"])
        }
        let sniffedMany = try await context.measure {
            try await Self.agents(pairs: pairs, roundTrips: perPair, recordsLatency: false, sniffing: ["ping0"])
        }
        let bare = "bare actors"
        return [
            context.figure("messages/s, 1 pair", one["rate"], unit: "msg/s", baseline: bareOne["rate"], baselineName: bare),
            context.figure(
                "round trip p50, 1 pair", one["p50"], unit: "µs", baseline: bareOne["p50"], baselineName: bare, target: "≤ 10"),
            context.figure("round trip p99, 1 pair", one["p99"], unit: "µs", baseline: bareOne["p99"], baselineName: bare),
            context.figure(
                "messages/s, \(pairs) pairs", many["rate"], unit: "msg/s", baseline: bareMany["rate"], baselineName: bare,
                target: "≥ 3,000,000"),
            context.figure("for scale: awaited call between 2 actors, round trip p50", direct["p50"], unit: "µs"),
            context.figure(
                "messages/s, 1 pair, metrics in Prometheus", measuredOne["rate"], unit: "msg/s", baseline: one["rate"],
                baselineName: "no-op metrics"),
            context.figure(
                "messages/s, \(pairs) pairs, metrics in Prometheus", measuredMany["rate"], unit: "msg/s", baseline: many["rate"],
                baselineName: "no-op metrics"),
            context.figure(
                "messages/s, 1 pair, sniffed", sniffedOne["rate"], unit: "msg/s", baseline: one["rate"], baselineName: "nobody sniffing"),
            context.figure(
                "messages/s, \(pairs) pairs, one pair sniffed", sniffedMany["rate"], unit: "msg/s", baseline: many["rate"],
                baselineName: "nobody sniffing"),
        ]
    }

    /// One run: `pairs` pingers each sending a request to its ponger, which answers
    /// with an inform; the pinger sends the next request on each inform. With
    /// `sniffing`, a reader takes the messages of those agents all along.
    static func agents(
        pairs: Int, roundTrips: Int, recordsLatency: Bool, metrics: any MetricsFactory = NOOPMetricsHandler.instance,
        sniffing: Set<String>? = nil
    ) async throws -> [String: Double] {
        let platform = Environment(name: "bench-pingpong", clock: ContinuousClock(), metrics: metrics)
        let sniffer = sniffing.map { agents in
            let messages = platform.sniff(agents)
            return Task {
                var read = 0
                for await _ in messages { read += 1 }
                return read
            }
        }
        defer { sniffer?.cancel() }
        let done = Countdown(pairs)
        var agents: [Agent] = []
        var counters: [ExchangeCounter] = []
        for pair in 0..<pairs {
            let counter = ExchangeCounter(roundTrips, recordsLatency: recordsLatency)
            let ponger = Agent("pong\(pair)", on: platform) {
                MessageHandler.on(.request) { agent, message in agent.send(message.makeReply(.inform)) }
            }
            let pinger = Agent("ping\(pair)", on: platform) {
                MessageHandler.on(.inform) { agent, message in
                    guard counter.answered() else { return done.tick() }
                    counter.sending()
                    agent.send(message.makeReply(.request))
                }
            }
            try await ponger.start()
            try await pinger.start()
            agents += [pinger, ponger]
            counters.append(counter)
        }
        let seconds = try await BenchClock.seconds {
            for pair in 0..<pairs {
                counters[pair].sending()
                agents[2 * pair].send(ACLMessage(.request, receivers: [agents[2 * pair + 1].identifier]))
            }
            try await done.wait()
        }
        for agent in agents { await agent.stop() }
        await platform.shutdown()
        let latency = Percentiles(counters.flatMap(\.latencies))
        return ["rate": Double(2 * pairs * roundTrips) / seconds, "p50": latency.p50, "p99": latency.p99]
    }

    /// The baseline: the same exchange between bare actors, each message a task
    /// calling the other actor (what sending costs without a platform).
    static func bareActors(pairs: Int, roundTrips: Int, recordsLatency: Bool) async throws -> [String: Double] {
        let done = Countdown(pairs)
        var pingers: [(BareNode, ExchangeCounter)] = []
        for _ in 0..<pairs {
            let counter = ExchangeCounter(roundTrips, recordsLatency: recordsLatency)
            let pinger = BareNode(counter: counter, done: done), ponger = BareNode(counter: nil, done: done)
            await pinger.link(to: ponger)
            await ponger.link(to: pinger)
            pingers.append((pinger, counter))
        }
        let seconds = try await BenchClock.seconds {
            for (pinger, counter) in pingers {
                counter.sending()
                await pinger.sendToPeer()
            }
            try await done.wait()
        }
        for (pinger, _) in pingers { await pinger.unlinkBoth() }
        let latency = Percentiles(pingers.flatMap { $0.1.latencies })
        return ["rate": Double(2 * pairs * roundTrips) / seconds, "p50": latency.p50, "p99": latency.p99]
    }

    /// For scale: one actor awaiting another's method, the cheapest hop there is (the
    /// calling thread runs the callee when it is free).
    static func awaitedCalls(roundTrips: Int) async -> [String: Double] {
        let pinger = BarePinger(ponger: BarePonger())
        await pinger.play(roundTrips)
        return ["p50": Percentiles(await pinger.latencies).p50]
    }
}

/// A baseline party: on each message (a task calling ``receive()``) it answers with
/// a task calling its peer; the asking side counts the round trips.
private actor BareNode {
    let counter: ExchangeCounter?
    let done: Countdown
    private var peer: BareNode?

    init(counter: ExchangeCounter?, done: Countdown) {
        self.counter = counter
        self.done = done
    }

    func link(to peer: BareNode) { self.peer = peer }

    func unlinkBoth() async {
        await peer?.unlink()
        peer = nil
    }

    func unlink() { peer = nil }

    func receive() {
        if let counter {
            guard counter.answered() else { return done.tick() }
            counter.sending()
        }
        sendToPeer()
    }

    func sendToPeer() {
        guard let peer else { return }
        Task { await peer.receive() }
    }
}

/// The baseline's answering side.
private actor BarePonger {
    private var received = 0
    func ping() -> Int {
        received += 1
        return received
    }
}

/// The baseline's asking side: awaits the ponger `roundTrips` times from its own executor.
private actor BarePinger {
    let ponger: BarePonger
    private(set) var latencies: [Double] = []

    init(ponger: BarePonger) { self.ponger = ponger }

    func play(_ roundTrips: Int) async {
        latencies.reserveCapacity(roundTrips)
        for _ in 0..<roundTrips {
            let start = BenchClock.clock.now
            _ = await ponger.ping()
            latencies.append((BenchClock.clock.now - start).microseconds)
        }
    }
}
