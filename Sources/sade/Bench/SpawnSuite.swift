import SADECore

/// `spawn`: create, start and stop N agents; and what an idle started agent costs.
struct SpawnSuite: BenchSuite {
    let name = "spawn"
    let workload = """
        create, start, stop N agents (N = 100,000) from a task on the agent scheduler; the same from the global \
        executor (N = 10,000); RSS growth per idle started agent; baseline: bare actors
        """

    func run(in context: BenchContext) async throws -> [BenchFigure] {
        let count = context.size(100_000, quick: 2_000)
        // Code that starts agents in bulk prefers the agents' own threads, so that an
        // awaited start or stop runs on the calling thread instead of waking another.
        let ours = try await context.measure {
            try await Task(executorPreference: AgentScheduler.shared) { try await Self.agents(count) }.value
        }
        let outside = try await context.measure { try await Self.agents(count / 10) }
        let bare = try await context.measure { await Self.bareActors(count) }
        return [
            context.figure(
                "agents/s (create+start+stop)", ours["rate"], unit: "agents/s", baseline: bare["rate"],
                baselineName: "bare actors", target: "≥ 500,000"),
            context.figure("create+start", ours["start"], unit: "agents/s", baseline: bare["start"], baselineName: "bare actors"),
            context.figure(
                "agents/s, awaited from the global executor", outside["rate"], unit: "agents/s", baseline: bare["rate"],
                baselineName: "bare actors"),
            context.figure(
                "memory per idle started agent", ours["bytes"], unit: "B", baseline: bare["bytes"], baselineName: "bare actor",
                target: "≤ 1,024"),
        ]
    }

    /// One run: agents named `a0` … on a fresh platform, started one after the other,
    /// measured idle, then stopped.
    private static func agents(_ count: Int) async throws -> [String: Double] {
        let platform = Environment(name: "bench-spawn")
        let residentBefore = ProcessMemory.trimmedResidentBytes
        var agents: [Agent] = []
        agents.reserveCapacity(count)
        let start = BenchClock.clock.now
        for index in 0..<count {
            let agent = Agent(name: "a\(index)", environment: platform)
            try await agent.start()
            agents.append(agent)
        }
        let started = BenchClock.clock.now
        let residentAfter = ProcessMemory.trimmedResidentBytes
        let resumed = BenchClock.clock.now
        for agent in agents { await agent.stop() }
        let elapsed = (started - start) + (BenchClock.clock.now - resumed)
        agents.removeAll()
        await platform.shutdown()
        return [
            "rate": Double(count) / elapsed.seconds,
            "start": Double(count) / (started - start).seconds,
            "bytes": Double(residentAfter - residentBefore) / Double(count),
        ]
    }

    /// The baseline: bare actors with a name and a state, "started" by one call each.
    private static func bareActors(_ count: Int) async -> [String: Double] {
        let residentBefore = ProcessMemory.trimmedResidentBytes
        var actors: [BareAgent] = []
        actors.reserveCapacity(count)
        let start = BenchClock.clock.now
        for index in 0..<count {
            let actor = BareAgent(name: "a\(index)")
            await actor.start()
            actors.append(actor)
        }
        let started = BenchClock.clock.now
        let residentAfter = ProcessMemory.trimmedResidentBytes
        let resumed = BenchClock.clock.now
        for actor in actors { await actor.stop() }
        let elapsed = (started - start) + (BenchClock.clock.now - resumed)
        return [
            "rate": Double(count) / elapsed.seconds,
            "start": Double(count) / (started - start).seconds,
            "bytes": Double(residentAfter - residentBefore) / Double(count),
        ]
    }
}

/// The least an agent could be: an actor with a name and a life-cycle flag.
private actor BareAgent {
    let name: String
    var isActive = false

    init(name: String) { self.name = name }

    func start() { isActive = true }
    func stop() { isActive = false }
}
