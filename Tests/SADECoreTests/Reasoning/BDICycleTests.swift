import InMemoryLogging
import Logging
import SADEACL
import SADECore
import SADETestTiming
import Testing

extension BeliefKey where Value == Int {
    static let temperature: BeliefKey<Int> = "temperature"
}

extension BeliefKey where Value == Bool {
    static let doorOpen: BeliefKey<Bool> = "doorOpen"
}

/// Strategies that record that they were called, then do what the defaults do.
struct RecordingBeliefRevision: BeliefRevisionStrategy {
    let calls: Recorder<String>
    func reviseBeliefs(_ state: inout MentalState) {
        calls.append("belief revision")
        DefaultBeliefRevisionStrategy().reviseBeliefs(&state)
    }
}

struct RecordingOptionGeneration: OptionGenerationStrategy {
    let calls: Recorder<String>
    func generateOptions(_ state: inout MentalState) {
        calls.append("option generation")
        DefaultOptionGenerationStrategy().generateOptions(&state)
    }
}

struct RecordingDeliberation: DeliberationStrategy {
    let calls: Recorder<String>
    func filter(_ state: inout MentalState) -> [String] {
        calls.append("deliberation")
        return DefaultDeliberationStrategy().filter(&state)
    }
}

/// Tries plans in reverse declaration order, to prove the strategy decides.
struct ReversePlanSelection: PlanSelectionStrategy {
    let calls: Recorder<String>
    func selectPlans(for goal: Goal, in state: MentalState) -> [Plan] {
        calls.append("plan selection")
        return goal.plans.reversed()
    }
}

@Suite("BDI reasoning cycle", .timeLimit(.minutes(3)), .timed)
struct BDICycleTests {
    @Test("one cycle calls the four strategies in the seed's order")
    func strategiesRunInOrder() async throws {
        let calls = Recorder<String>()
        let strategies = ReasoningStrategies(
            beliefRevision: RecordingBeliefRevision(calls: calls),
            optionGeneration: RecordingOptionGeneration(calls: calls),
            deliberation: RecordingDeliberation(calls: calls),
            planSelection: ReversePlanSelection(calls: calls))
        let agent = Agent("Thinker", on: Environment(), strategies: strategies) {
            Goal("think") { Plan { OneShotAction { _ in } } }
        }
        try await agent.start()
        #expect(calls.all.isEmpty, "no cycle on start unless asked")

        await agent.runBDICycle()

        // The intention the cycle started may already have finished and run the next
        // cycle: the first four calls are this one's.
        #expect(calls.all.prefix(4) == ["belief revision", "option generation", "deliberation", "plan selection"])
    }

    @Test("a custom plan selection decides which plan runs")
    func customPlanSelectionIsUsed() async throws {
        let ran = Recorder<String>()
        let agent = Agent(
            "Chooser", on: Environment(), strategies: ReasoningStrategies(planSelection: ReversePlanSelection(calls: Recorder())),
            runBDICycleOnStart: true
        ) {
            Goal("choose") {
                Plan("first") { OneShotAction { _ in ran.append("first") } }
                Plan("second") { OneShotAction { _ in ran.append("second") } }
            }
        }
        var probe = await EventProbe(agent)
        try await agent.start()
        #expect(await probe.waitFor(.goalStatusChanged(goal: "choose", status: .achieved)))
        #expect(ran.all == ["second"])
    }

    @Test("the default plan selection tries plans by descending priority, ties in order")
    func defaultPlanSelectionOrdersByPriority() {
        let goal = Goal("g") {
            Plan("low", priority: 1) { OneShotAction { _ in } }
            Plan("high", priority: 5) { OneShotAction { _ in } }
            Plan("low too", priority: 1) { OneShotAction { _ in } }
        }
        let order = DefaultPlanSelectionStrategy().selectPlans(for: goal, in: MentalState(goals: [goal])).map(\.name)
        #expect(order == ["high", "low", "low too"])
    }

    @Test("a throwing action fails its plan, the next plan runs, the error is logged and the agent goes on")
    func throwingActionFailsPlanAndNextPlanRuns() async throws {
        struct Jammed: Error {}
        let log = InMemoryLogHandler()
        let platform = Environment(name: "test", logger: Logger(label: "test") { _ in log })
        let agent = Agent("Opener", on: platform, runBDICycleOnStart: true) {
            Belief(.doorOpen, false)
            Goal("open door") {
                Plan("push", priority: 2) { OneShotAction("push") { _ in throw Jammed() } }
                Plan("use key", priority: 1) {
                    OneShotAction("turn key") { context in await context.setBelief(.doorOpen, to: true) }
                }
            }
            MessageHandler.on(.queryIf) { agent, message in
                agent.send(message.makeReply(.inform, content: "\(agent.beliefs[.doorOpen] ?? false)"))
            }
        }
        var probe = await EventProbe(agent)
        try await agent.start()

        #expect(await probe.waitFor(.goalStatusChanged(goal: "open door", status: .achieved)))
        let goal = try #require(await agent.goal(named: "open door"))
        #expect(goal.plans.map(\.status) == [.failed, .achieved])
        #expect(await agent.beliefs[.doorOpen] == true)
        let failure = try #require(log.entries.first { $0.message == "plan failed" })
        #expect(failure.level == .error)
        #expect(failure.metadata["plan"] == "push")
        #expect(failure.metadata["agent"] == "Opener")
        #expect(await agent.state == .active)
    }

    @Test("a goal fails when every plan fails")
    func goalFailsWhenAllPlansFail() async throws {
        struct Broken: Error {}
        let agent = Agent("Unlucky", on: Environment(), runBDICycleOnStart: true) {
            Goal("fly") {
                Plan("flap") { OneShotAction { _ in throw Broken() } }
                Plan("jump") { OneShotAction(precondition: .believes("wings")) { _ in } }
            }
        }
        var probe = await EventProbe(agent)
        try await agent.start()
        #expect(await probe.waitFor(.goalStatusChanged(goal: "fly", status: .failed)))
        #expect(await agent.goal(named: "fly")?.plans.map(\.status) == [.failed, .failed])
    }
}

@Suite("Default belief revision", .timeLimit(.minutes(5)), .timed)
struct BeliefRevisionTests {
    @Test("a belief whose validity has passed is dropped by the next cycle")
    func expiredBeliefsAreDropped() async throws {
        let clock = ManualClock()
        let agent = Agent(name: "Sensor", environment: Environment(clock: clock), beliefs: ["door": "closed"])
        try await agent.start()
        await agent.setBelief(.temperature, to: 37, validFor: .seconds(5))
        clock.advance(by: .seconds(4))
        await agent.runBDICycle()
        #expect(await agent.beliefs[.temperature] == 37)

        var probe = await EventProbe(agent)
        clock.advance(by: .seconds(1))
        await agent.runBDICycle()
        #expect(await agent.beliefs[.temperature] == nil)
        #expect(await agent.beliefs.names == ["door"], "beliefs without validity stay")
        #expect(await probe.waitFor(.beliefChanged("temperature")))
    }

    @Test("a belief base keeps insertion order, typed access and change detection")
    func beliefBase() {
        var beliefs: BeliefBase = ["b": 1, "a": "x"]
        #expect(beliefs.names == ["b", "a"])
        let unchanged = beliefs.set("b", to: 1)
        let changed = beliefs.set("b", to: 2)
        #expect(!unchanged)
        #expect(changed)
        #expect(beliefs[BeliefKey<Int>("b")] == 2)
        #expect(beliefs[BeliefKey<String>("b")] == nil, "a typed read of another type is nil")
        let removed = beliefs.remove("b")
        let removedAgain = beliefs.remove("b")
        #expect(removed)
        #expect(!removedAgain)
        #expect(beliefs.names == ["a"])
    }
}

/// Learns a new plan from a message: an option generation that changes goals.
struct LearningOptionGeneration: OptionGenerationStrategy {
    let ran: Recorder<String>
    func generateOptions(_ state: inout MentalState) {
        DefaultOptionGenerationStrategy().generateOptions(&state)
        guard case .message(let message) = state.trigger, message.content == "learn",
            let index = state.goalIndex(named: "serve")
        else { return }
        let ran = self.ran
        state.goals[index].plans.append(Plan("learned") { OneShotAction { _ in ran.append("learned") } })
        state.goals[index].readopt()
    }
}

@Suite("Custom strategies changing the mental state", .timeLimit(.minutes(3)), .timed)
struct CustomStrategyTests {
    @Test("an option generation that adds a plan on a message gets it executed")
    func optionGenerationAddsPlan() async throws {
        let ran = Recorder<String>()
        let platform = Environment(name: "test")
        let agent = Agent(
            "Learner", on: platform, strategies: ReasoningStrategies(optionGeneration: LearningOptionGeneration(ran: ran))
        ) {
            Goal("serve") { Plan("refuse") { OneShotAction { _ in throw CancellationError() } } }
        }
        var probe = await EventProbe(agent)
        try await agent.start()
        await agent.runBDICycle()
        #expect(await probe.waitFor(.goalStatusChanged(goal: "serve", status: .failed)))

        platform.route(ACLMessage(.inform, receivers: ["Learner"], content: "learn"))
        #expect(await probe.waitFor(.planStatusChanged(goal: "serve", plan: "learned", status: .achieved)))
        #expect(await probe.waitFor(.goalStatusChanged(goal: "serve", status: .achieved)))
        #expect(ran.all == ["learned"])
    }
}
