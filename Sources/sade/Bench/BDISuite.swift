import SADECore

/// `bdi`: one agent with 10 maintain goals × 3 plans chosen by context, reacting to
/// belief changes.
struct BDISuite: BenchSuite {
    let name = "bdi"
    let workload = "an agent with 10 goals × 3 plans reacting to belief changes; baseline: the same conditions in a plain loop"

    /// Goals per agent and plans per goal.
    static let goals = 10, plans = 3

    func run(in context: BenchContext) async throws -> [BenchFigure] {
        let cycles = context.size(200_000, quick: 5_000)
        let executions = context.size(50_000, quick: 1_000)
        let reasoning = try await context.measure { try await Self.reasoningCycles(cycles) }
        let bare = try await context.measure { Self.plainLoop(cycles) }
        let pursuing = try await context.measure { try await Self.planExecutions(executions) }
        return [
            context.figure(
                "reasoning cycles/s", reasoning["rate"], unit: "cycles/s", baseline: bare["rate"],
                baselineName: "plain loop", target: "≥ 500,000"),
            context.figure("plan executions/s (goal broken, plan run, restored)", pursuing["rate"], unit: "plans/s"),
        ]
    }

    /// The agent: goal `g<i>` keeps `level<i>` below 100; plan `p<j>` of it applies
    /// while `mode<i>` is `j` and restores the level (and, while `chain` says so,
    /// breaks the goal again for the next execution).
    private static func agent(on platform: Environment, chain: ExchangeCounter?, done: Countdown?) -> Agent {
        var beliefs = BeliefBase()
        var goals: [Goal] = []
        for goal in 0..<Self.goals {
            // Keys made once, as an application declares them: a condition runs in every cycle.
            let level = BeliefKey<Int>("level\(goal)"), mode = BeliefKey<Int>("mode\(goal)")
            beliefs.set(level, to: 0)
            beliefs.set(mode, to: 0)
            let plans = (0..<Self.plans).map { plan in
                Plan(
                    "p\(plan)", context: .belief(mode, is: plan),
                    actions: [
                        OneShotAction("restore") { context in
                            await context.agent.restore(goal: goal, breakingAgain: chain?.answered() ?? false, done: done)
                        }
                    ])
            }
            goals.append(
                Goal("g\(goal)", kind: .maintain(Condition("level\(goal) < 100") { ($0[level] ?? 0) < 100 }), plans: plans))
        }
        beliefs.set("tick", to: 0)
        return Agent(name: "bdi", environment: platform, beliefs: beliefs, goals: goals, runBDICycleOnStart: true)
    }

    /// One run: `count` changes of a belief no goal is about, each a full cycle over
    /// the 10 goals (all holding, so none starts an intention).
    private static func reasoningCycles(_ count: Int) async throws -> [String: Double] {
        let platform = Environment(name: "bench-bdi")
        let agent = Self.agent(on: platform, chain: nil, done: nil)
        try await agent.start()
        let seconds = await BenchClock.seconds { await agent.changeTick(count) }
        await agent.stop()
        await platform.shutdown()
        return ["rate": Double(count) / seconds]
    }

    /// One run: every goal is broken; each execution restores its goal and breaks it
    /// again with another mode (so another plan applies) until `count` are done.
    private static func planExecutions(_ count: Int) async throws -> [String: Double] {
        let platform = Environment(name: "bench-bdi")
        let chain = ExchangeCounter(count, recordsLatency: false)
        let done = Countdown(Self.goals)
        let agent = Self.agent(on: platform, chain: chain, done: done)
        try await agent.start()
        let seconds = try await BenchClock.seconds {
            await agent.breakEveryGoal()
            try await done.wait()
        }
        await agent.stop()
        await platform.shutdown()
        return ["rate": Double(count) / seconds]
    }

    /// The baseline: the same belief change and the same 10 condition tests over a
    /// dictionary, without the agent.
    private static func plainLoop(_ count: Int) -> [String: Double] {
        var beliefs: [String: Int] = ["tick": 0]
        for goal in 0..<Self.goals { beliefs["level\(goal)"] = 0 }
        let names = (0..<Self.goals).map { "level\($0)" }
        var holding = 0
        let start = BenchClock.clock.now
        for tick in 0..<count {
            beliefs["tick"] = tick
            for name in names where beliefs[name, default: 0] < 100 { holding += 1 }
        }
        let seconds = (BenchClock.clock.now - start).seconds
        precondition(holding == count * Self.goals)
        return ["rate": Double(count) / seconds]
    }
}

extension Agent {
    /// Changes the belief `tick` `count` times on the agent's executor; each change
    /// runs a reasoning cycle.
    fileprivate func changeTick(_ count: Int) {
        for tick in 1...count { setBelief("tick", to: tick) }
    }

    /// Breaks every goal of the BDI suite's agent.
    fileprivate func breakEveryGoal() {
        for goal in 0..<BDISuite.goals { setBelief("level\(goal)", to: 100) }
    }

    /// Restores goal `goal` and, if asked, breaks it again under the next mode; when
    /// not, the goal's chain ends and `done` hears of it.
    fileprivate func restore(goal: Int, breakingAgain: Bool, done: Countdown?) {
        setBelief("level\(goal)", to: 0)
        guard breakingAgain else { return done?.tick() ?? () }
        let mode = beliefs["mode\(goal)"] as? Int ?? 0
        setBelief("mode\(goal)", to: (mode + 1) % BDISuite.plans)
        setBelief("level\(goal)", to: 100)
    }
}
