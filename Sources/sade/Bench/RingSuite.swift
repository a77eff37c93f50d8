import SADEACL
import SADECore

/// `ring`: a token passed round a ring of agents (Savina's ThreadRing), against the
/// same ring of bare actors where each pass is a task sent to the next actor.
struct RingSuite: BenchSuite {
    let name = "ring"
    let workload = "token ring of 100 agents, 100,000 passes (Savina ThreadRing); baseline: bare actors, a task per pass"

    func run(in context: BenchContext) async throws -> [BenchFigure] {
        let passes = context.size(100_000, quick: 5_000)
        let ours = try await context.measure { try await Self.agents(size: 100, passes: passes) }
        let bare = try await context.measure { try await Self.bareActors(size: 100, passes: passes) }
        return [
            context.figure(
                "passes/s", ours["rate"], unit: "passes/s", baseline: bare["rate"], baselineName: "bare actors",
                target: "≥ 1,000,000")
        ]
    }

    /// One run: each agent forwards the token (an inform) to the next until the
    /// passes are used up.
    private static func agents(size: Int, passes: Int) async throws -> [String: Double] {
        let platform = Environment(name: "bench-ring")
        let counter = ExchangeCounter(passes, recordsLatency: false)
        let done = Countdown(1)
        let agents = (0..<size).map { index in
            let token = ACLMessage(.inform, receivers: [AgentIdentifier(name: "r\((index + 1) % size)")])
            return Agent("r\(index)", on: platform) {
                MessageHandler.on(.inform) { agent, _ in
                    guard counter.answered() else { return done.tick() }
                    agent.send(token)
                }
            }
        }
        for agent in agents { try await agent.start() }
        let seconds = try await BenchClock.seconds {
            agents[size - 1].send(ACLMessage(.inform, receivers: [agents[0].identifier]))
            try await done.wait()
        }
        for agent in agents { await agent.stop() }
        await platform.shutdown()
        return ["rate": Double(passes) / seconds]
    }

    private static func bareActors(size: Int, passes: Int) async throws -> [String: Double] {
        let counter = ExchangeCounter(passes, recordsLatency: false)
        let done = Countdown(1)
        let nodes = (0..<size).map { _ in BareRingNode(counter: counter, done: done) }
        for index in 0..<size { await nodes[index].link(to: nodes[(index + 1) % size]) }
        let seconds = try await BenchClock.seconds {
            Task { await nodes[0].pass() }
            try await done.wait()
        }
        for node in nodes { await node.unlink() }
        return ["rate": Double(passes) / seconds]
    }
}

/// A baseline ring member: passing the token on is a task that calls the next actor.
private actor BareRingNode {
    let counter: ExchangeCounter
    let done: Countdown
    private var next: BareRingNode?

    init(counter: ExchangeCounter, done: Countdown) {
        self.counter = counter
        self.done = done
    }

    func link(to next: BareRingNode) { self.next = next }
    func unlink() { next = nil }

    func pass() {
        guard counter.answered(), let next else { return done.tick() }
        Task { await next.pass() }
    }
}
