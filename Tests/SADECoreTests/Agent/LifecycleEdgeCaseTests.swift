import SADEACL
@testable import SADECore
import SADETestTiming
import Testing

/// Edge cases of the life cycle found in review: each proves a fix.
@Suite("Life-cycle edge cases", .timeLimit(.minutes(3)), .timed)
struct LifecycleEdgeCaseTests {
    @Test("a stopped or suspended agent sends nothing")
    func onlyActiveAgentsSend() async throws {
        let platform = Environment(name: "p")
        let listener = Agent(name: "Listener", environment: platform)
        let talker = Agent(name: "Talker", environment: platform)
        let other = Agent(name: "Other", environment: platform)
        var probe = await EventProbe(listener)
        for agent in [listener, talker, other] { try await agent.start() }

        try await talker.suspend()
        talker.send(ACLMessage(.inform, receivers: ["Listener"], content: "while suspended"))
        await talker.stop()
        talker.send(ACLMessage(.inform, receivers: ["Listener"], content: "from the dead"))
        Agent(name: "Unborn", environment: platform).send(ACLMessage(.inform, receivers: ["Listener"], content: "unborn"))
        other.send(ACLMessage(.inform, receivers: ["Listener"], content: "alive"))

        #expect(await probe.nextMessage()?.content == "alive")
    }

    @Test("a cancelled intention starts none of its plan's remaining actions")
    func cancelledIntentionRunsNoFurtherAction() async throws {
        let gate = Gate()
        let runs = Recorder<String>()
        let agent = Agent("Worker", on: Environment(), runBDICycleOnStart: true) {
            Goal("job") {
                Plan("steps") {
                    OneShotAction("slow") { _ in
                        runs.append("slow")
                        await gate.wait()  // ignores cancellation
                    }
                    OneShotAction("next") { _ in runs.append("next") }
                }
            }
        }
        var probe = await EventProbe(agent)
        try await agent.start()
        #expect(await probe.waitFor(.planStatusChanged(goal: "job", plan: "steps", status: .executing)))

        try await agent.suspend()  // cancels the intention while "slow" waits
        try await agent.resume()  // a new intention starts the plan over
        gate.open()
        #expect(await probe.waitFor(.goalStatusChanged(goal: "job", status: .achieved)))
        #expect(runs.all.filter { $0 == "next" }.count == 1, "only the new intention went on to 'next': \(runs.all)")
    }

    @Test("messages accepted during a start that fails are returned, and the mailbox keeps working")
    func failedStartDoesNotWedgeTheMailbox() async throws {
        let platform = Environment(name: "p")
        let sender = Agent(name: "Sender", environment: platform)
        var senderProbe = await EventProbe(sender)
        try await sender.start()
        let agent = Agent("Helpdesk", on: platform) { ServiceDescription(name: "fix", type: "it") }
        var probe = await EventProbe(agent)
        try platform.directory.register(DirectoryEntry(agent: agent.identifier, services: []))

        // As if routed in the window between registration and the failed DF step.
        #expect(agent.accept(ACLMessage(.request, sender: sender.identifier, receivers: ["Helpdesk"], replyWith: "early")))
        await #expect(throws: DirectoryFacilitator.DirectoryError.self) { try await agent.start() }
        let returned = await senderProbe.nextMessage()
        #expect(returned?.inReplyTo == "early")
        #expect(returned?.userDefined["X-failure-reason"] == "unknown-agent")

        try platform.directory.deregister(agent.identifier)
        try await agent.start()
        sender.send(ACLMessage(.request, receivers: ["Helpdesk"], content: "later"))
        #expect(await probe.nextMessage()?.content == "later")
    }

    @Test("an achieve goal reached while its cyclic plan runs is achieved and its timer stops")
    func achieveGoalReachedMidPlan() async throws {
        let clock = ManualClock()
        let agent = Agent("Waiter", on: Environment(clock: clock), runBDICycleOnStart: true) {
            Belief(.doorOpen, false)
            Goal.achieve("door open", until: .belief(.doorOpen, is: true)) {
                Plan("knock") { CyclicAction(every: .seconds(5)) { _ in } }
            }
        }
        var probe = await EventProbe(agent)
        try await agent.start()
        await clock.waitForSleepers(1)

        await agent.setBelief(.doorOpen, to: true)  // someone opened it
        #expect(await probe.waitFor(.goalStatusChanged(goal: "door open", status: .achieved)))
        #expect(clock.sleeperCount == 0, "the intention was dropped")
        #expect(await agent.goal(named: "door open")?.plans.first?.status == .waiting, "interrupted, not finished")
    }

    @Test("a failed maintain goal is tried again when a new message arrives, not before")
    func failedMaintainGoalRetriedOnNews() async throws {
        struct Jammed: Error {}
        let attempts = Recorder<Int>()
        let platform = Environment(name: "p")
        let fireman = Agent("Fireman", on: platform) {
            Belief(.isInFire, false)
            Goal.maintain("no fire", .belief(.isInFire, is: false)) {
                Plan("extinguish") {
                    OneShotAction { context in
                        attempts.append(attempts.count + 1)
                        if attempts.count == 1 { throw Jammed() }  // the hose jams the first time
                        await context.setBelief(.isInFire, to: false)
                    }
                }
            }
            MessageHandler.on(.inform) { agent, _ in agent.setBelief(.isInFire, to: true) }
        }
        var probe = await EventProbe(fireman)
        try await fireman.start()

        platform.route(ACLMessage(.inform, receivers: ["Fireman"], content: "(fire)"))
        #expect(await probe.waitFor(.goalStatusChanged(goal: "no fire", status: .failed)))
        await fireman.runBDICycle()
        #expect(attempts.count == 1, "no retry without news")

        platform.route(ACLMessage(.inform, receivers: ["Fireman"], content: "(still fire)"))
        #expect(await probe.waitFor(.goalStatusChanged(goal: "no fire", status: .achieved)))
        #expect(attempts.count == 2)
    }
}

@Suite("Composite behaviours give each child its own stop flag", .timeLimit(.minutes(3)), .timed)
struct CompositeStopFlagTests {
    @Test("a cyclic child that stops itself does not stop the next one")
    func sequentialChildrenStopIndependently() async throws {
        let clock = ManualClock()
        let (runs, run) = AsyncStream.makeStream(of: String.self)
        let agent = Agent("Sequencer", on: Environment(clock: clock)) {
            SequentialBehaviour("steps") {
                CyclicBehaviour(every: .seconds(1)) { context in
                    run.yield("first")
                    context.stopRepeating()
                }
                CyclicBehaviour(every: .seconds(1)) { context in
                    run.yield("second")
                    context.stopRepeating()
                }
            }
        }
        var seen = runs.makeAsyncIterator()
        var probe = await EventProbe(agent)
        try await agent.start()
        for expected in ["first", "second"] {
            await clock.waitForSleepers(1)
            clock.advance(by: .seconds(1))
            #expect(await seen.next() == expected)
        }
        #expect(await probe.waitFor(.behaviourFinished("steps")))
    }
}
