import SADEACL
import SADECore
import SADETestTiming
import Testing

extension BeliefKey where Value == Bool {
    static let isInFire: BeliefKey<Bool> = "isInFire"
}

/// The four unit tests of SADE4Health §5.2, on the Alarmed/Fireman agents.
@Suite("SADE4Health unit tests", .timeLimit(.minutes(3)), .timed)
struct SeedUnitTests {
    @Test("1. init: the agent keeps every property it was created with")
    func initialisation() async {
        let platform = Environment(name: "test")
        let plan = Plan("extinguish", priority: 2, actions: [OneShotAction { _ in }])
        let fireman = Agent(
            name: "Fireman", environment: platform, beliefs: ["isInFire": false],
            goals: [Goal("extinguish fire", plans: [plan])], runBDICycleOnStart: false)

        #expect(fireman.name == "Fireman")
        #expect(fireman.identifier == AgentIdentifier(name: "Fireman@test"))
        #expect(fireman.environment === platform)
        #expect(fireman.runBDICycleOnStart == false)
        #expect(fireman.strategies.beliefRevision is DefaultBeliefRevisionStrategy)
        #expect(fireman.strategies.optionGeneration is DefaultOptionGenerationStrategy)
        #expect(fireman.strategies.deliberation is DefaultDeliberationStrategy)
        #expect(fireman.strategies.planSelection is DefaultPlanSelectionStrategy)
        #expect(await fireman.state == .initiated)
        #expect(await fireman.beliefs[.isInFire] == false)
        let goals = await fireman.goals
        #expect(goals.map(\.name) == ["extinguish fire"])
        #expect(goals.first?.status == .waiting)
        #expect(goals.first?.plans.map(\.name) == ["extinguish"])
        #expect(goals.first?.plans.first?.priority == 2)
    }

    @Test("2. registration: a started agent is found in the white pages by name")
    func registrationInTheEnvironment() async throws {
        let platform = Environment(name: "test")
        let fireman = Agent(name: "Fireman", environment: platform)
        #expect(platform.agent(named: "Fireman") == nil)

        try await fireman.start()

        #expect(platform.agent(named: "Fireman") === fireman)
        #expect(platform.agent(named: "Fireman@test") === fireman)
        #expect(platform.description(ofAgentNamed: "Fireman")?.state == .active)
        #expect(platform.agents.map(\.identifier.name) == ["Fireman@test"])
    }

    @Test("3. cyclic action: goal and plan stay executing while the action runs")
    func cyclicActionKeepsGoalAndPlanExecuting() async throws {
        let clock = ManualClock()
        let platform = Environment(name: "test", clock: clock)
        let checks = Recorder<Int>()
        let (ticks, tick) = AsyncStream.makeStream(of: Int.self)
        let alarmed = Agent("Alarmed", on: platform, runBDICycleOnStart: true) {
            Belief(.isInFire, false)
            Goal("watch") {
                Plan("patrol") {
                    CyclicAction("check fire", every: .seconds(10)) { _ in
                        checks.append(checks.count + 1)
                        tick.yield(checks.count)
                    }
                }
            }
        }
        var probe = await EventProbe(alarmed)
        var tickIterator = ticks.makeAsyncIterator()

        try await alarmed.start()
        #expect(await probe.waitFor(.planStatusChanged(goal: "watch", plan: "patrol", status: .executing)))

        for expected in 1...3 {
            await clock.waitForSleepers(1)  // the action's timer is armed
            #expect(clock.sleeperCount == 1)
            clock.advance(by: .seconds(10))
            #expect(await tickIterator.next() == expected)
            let goal = try #require(await alarmed.goal(named: "watch"))
            #expect(goal.status == .executing)
            #expect(goal.plans.first?.status == .executing)
        }
        await alarmed.stop()
        #expect(clock.sleeperCount == 0, "stopping the agent cancels the action's timer")
    }

    @Test("4. one-shot action: with isInFire true, starting the Fireman puts the fire out")
    func oneShotActionExtinguishesTheFire() async throws {
        let platform = Environment(name: "test")
        let fireman = Agent("Fireman", on: platform, runBDICycleOnStart: true) {
            Belief(.isInFire, true)
            Goal("extinguish fire") {
                Plan {
                    OneShotAction("extinguish") { context in
                        if await context.belief(.isInFire) == true {
                            await context.setBelief(.isInFire, to: false)
                        }
                    }
                }
            }
        }
        var probe = await EventProbe(fireman)

        try await fireman.start()

        #expect(await probe.waitFor(.goalStatusChanged(goal: "extinguish fire", status: .achieved)))
        #expect(await fireman.beliefs[.isInFire] == false)
    }
}
