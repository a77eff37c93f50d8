import SADECore
import SADETestTiming
import Testing

/// A thermostat agent keeping the room at 25 °C or less with one plan.
func thermostat(_ plan: Plan) -> Agent {
    Agent("Thermostat", on: Environment()) {
        Belief(.temperature, 21)
        Goal.maintain("comfortable", Condition("temperature <= 25") { ($0[.temperature] ?? 0) <= 25 }) { plan }
    }
}

@Suite("Perform, achieve and maintain goals", .timeLimit(.minutes(3)), .timed)
struct GoalKindTests {
    @Test("an achieve goal tries plans until its condition holds")
    func achieveGoalRunsUntilConditionHolds() async throws {
        let ran = Recorder<String>()
        let agent = Agent("Opener", on: Environment(), runBDICycleOnStart: true) {
            Belief(.doorOpen, false)
            Goal.achieve("door open", until: .belief(.doorOpen, is: true)) {
                Plan("knock", priority: 2) { OneShotAction { _ in ran.append("knock") } }
                Plan("open", priority: 1) {
                    OneShotAction { context in
                        ran.append("open")
                        await context.setBelief(.doorOpen, to: true)
                    }
                }
                Plan("break in") { OneShotAction { _ in ran.append("break in") } }
            }
        }
        var probe = await EventProbe(agent)
        try await agent.start()

        #expect(await probe.waitFor(.goalStatusChanged(goal: "door open", status: .achieved)))
        #expect(ran.all == ["knock", "open"], "a plan that succeeds without reaching the condition is not enough")
    }

    @Test("an achieve goal whose condition already holds is achieved without running a plan")
    func achieveGoalAlreadyTrue() async throws {
        let ran = Recorder<String>()
        let agent = Agent("Opener", on: Environment(), runBDICycleOnStart: true) {
            Belief(.doorOpen, true)
            Goal.achieve("door open", until: .belief(.doorOpen, is: true)) {
                Plan { OneShotAction { _ in ran.append("open") } }
            }
        }
        try await agent.start()
        let goal = try #require(await agent.goal(named: "door open"))
        #expect(goal.status == .achieved)
        #expect(goal.plans.first?.status == .waiting)
        #expect(ran.count == 0)
    }

    @Test("an achieve goal fails when no plan brings its condition about")
    func achieveGoalFails() async throws {
        let agent = Agent("Opener", on: Environment(), runBDICycleOnStart: true) {
            Belief(.doorOpen, false)
            Goal.achieve("door open", until: .belief(.doorOpen, is: true)) {
                Plan("knock") { OneShotAction { _ in } }
            }
        }
        var probe = await EventProbe(agent)
        try await agent.start()
        #expect(await probe.waitFor(.goalStatusChanged(goal: "door open", status: .failed)))
        #expect(await agent.goal(named: "door open")?.plans.first?.status == .achieved)
    }

    @Test("a maintain goal is re-adopted every time its condition stops holding")
    func maintainGoalRestoresCondition() async throws {
        let coolings = Recorder<Int>()
        let agent = thermostat(
            Plan("cool") {
                OneShotAction { context in
                    coolings.append(await context.belief(.temperature) ?? 0)
                    await context.setBelief(.temperature, to: 21)
                }
            })
        var probe = await EventProbe(agent)
        try await agent.start()
        await agent.runBDICycle()
        #expect(await agent.goal(named: "comfortable")?.status == .achieved, "the condition holds: nothing to do")

        for (round, heat) in [30, 35].enumerated() {
            await agent.setBelief(.temperature, to: heat)
            #expect(await probe.waitFor(.goalStatusChanged(goal: "comfortable", status: .executing)))
            #expect(await probe.waitFor(.goalStatusChanged(goal: "comfortable", status: .achieved)))
            #expect(coolings.all.count == round + 1)
        }
        #expect(coolings.all == [30, 35])
        #expect(await agent.beliefs[.temperature] == 21)
    }

    @Test("a perform goal runs once; an adopted goal is taken up by the next cycle")
    func adoptNewGoal() async throws {
        let ran = Recorder<String>()
        let agent = Agent("Worker", on: Environment()) {}
        var probe = await EventProbe(agent)
        try await agent.start()

        try await agent.adopt(Goal("report") { Plan { OneShotAction { _ in ran.append("report") } } })
        #expect(await probe.waitFor(.goalStatusChanged(goal: "report", status: .achieved)))
        await agent.runBDICycle()
        #expect(ran.all == ["report"])
        await #expect(throws: AgentError.duplicateGoal("report")) {
            try await agent.adopt(Goal("report", plans: []))
        }
    }

    @Test("a waiting goal with no applicable plan keeps waiting until its context holds")
    func goalWaitsForApplicablePlan() async throws {
        let agent = Agent("Waiter", on: Environment(), runBDICycleOnStart: true) {
            Belief(.doorOpen, false)
            Goal("walk in") { Plan(context: .belief(.doorOpen, is: true)) { OneShotAction { _ in } } }
        }
        var probe = await EventProbe(agent)
        try await agent.start()
        #expect(await agent.goal(named: "walk in")?.status == .waiting)

        await agent.setBelief(.doorOpen, to: true)
        #expect(await probe.waitFor(.goalStatusChanged(goal: "walk in", status: .achieved)))
    }

    @Test("a suspended goal's intention is cancelled; resuming it runs it again")
    func suspendAndResumeGoal() async throws {
        let clock = ManualClock()
        let (ticks, tick) = AsyncStream.makeStream(of: Void.self)
        let agent = Agent("Patroller", on: Environment(clock: clock), runBDICycleOnStart: true) {
            Goal("patrol") { Plan("round") { CyclicAction(every: .seconds(1)) { _ in tick.yield() } } }
        }
        var probe = await EventProbe(agent)
        try await agent.start()
        await clock.waitForSleepers(1)

        try await agent.suspendGoal("patrol")
        #expect(await agent.goal(named: "patrol")?.status == .suspended)
        #expect(await agent.goal(named: "patrol")?.plans.first?.status == .waiting)
        #expect(await probe.waitFor(.goalStatusChanged(goal: "patrol", status: .suspended)))

        try await agent.resumeGoal("patrol")
        #expect(await probe.waitFor(.planStatusChanged(goal: "patrol", plan: "round", status: .executing)))
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        var tickIterator = ticks.makeAsyncIterator()
        #expect(await tickIterator.next() != nil, "the resumed intention ticks again")
        await #expect(throws: AgentError.unknownGoal("nap")) { try await agent.suspendGoal("nap") }
    }
}

@Suite("Maintain goal broken again while its plan runs", .timeLimit(.minutes(3)), .timed)
struct MaintainGoalRaceTests {
    @Test("a violation while the restoring plan is still running is pursued again, not lost")
    func violationDuringIntentionIsNotLost() async throws {
        let gate = Gate()
        let (restored, restoredSignal) = AsyncStream.makeStream(of: Void.self)
        let coolings = Recorder<Int>()
        let agent = thermostat(
            Plan("cool") {
                OneShotAction { context in
                    coolings.append(await context.belief(.temperature) ?? 0)
                    await context.setBelief(.temperature, to: 21)
                    if coolings.count == 1 {
                        restoredSignal.yield()
                        await gate.wait()  // still finishing when the room heats up again
                    }
                }
            })
        var probe = await EventProbe(agent)
        try await agent.start()
        await agent.runBDICycle()
        #expect(await probe.waitFor(.goalStatusChanged(goal: "comfortable", status: .achieved)))

        await agent.setBelief(.temperature, to: 30)
        var restoredIterator = restored.makeAsyncIterator()
        _ = await restoredIterator.next()
        await agent.setBelief(.temperature, to: 40)
        #expect(await agent.goal(named: "comfortable")?.status == .executing)
        gate.open()

        #expect(await probe.waitFor(.goalStatusChanged(goal: "comfortable", status: .achieved)))
        #expect(coolings.all == [30, 40])
        #expect(await agent.beliefs[.temperature] == 21)
    }

    @Test("a maintain goal whose plan cannot restore the condition fails instead of looping")
    func uselessPlanIsNotRetriedForever() async throws {
        let tries = Recorder<Int>()
        let agent = thermostat(Plan("open window") { OneShotAction { _ in tries.append(1) } })
        var probe = await EventProbe(agent)
        try await agent.start()
        await agent.runBDICycle()
        await agent.setBelief(.temperature, to: 30)
        #expect(await probe.waitFor(.goalStatusChanged(goal: "comfortable", status: .failed)))
        await agent.runBDICycle()
        #expect(tries.count == 1)
        #expect(await agent.goal(named: "comfortable")?.status == .failed)

        await agent.setBelief(.temperature, to: 22)
        #expect(await agent.goal(named: "comfortable")?.status == .achieved, "holding again: maintained")
    }
}
