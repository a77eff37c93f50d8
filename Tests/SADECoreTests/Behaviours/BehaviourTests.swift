import SADECore
import SADETestTiming
import Testing

@Suite("Behaviours", .timeLimit(.minutes(3)), .timed)
struct BehaviourTests {
    @Test("a one-shot behaviour runs once at start and is removed")
    func oneShot() async throws {
        let runs = Recorder<String>()
        let agent = Agent("Greeter", on: Environment()) {
            OneShotBehaviour("greet") { _ in runs.append("hello") }
        }
        var probe = await EventProbe(agent)
        try await agent.start()
        #expect(await probe.waitFor(.behaviourFinished("greet")))
        #expect(runs.all == ["hello"])
        #expect(await agent.behaviourCount == 0)
    }

    @Test("cyclic and ticker behaviours run every interval until stopped; a waker runs once after its delay")
    func timedBehaviours() async throws {
        let clock = ManualClock()
        let (events, event) = AsyncStream.makeStream(of: String.self)
        let agent = Agent("Timer", on: Environment(clock: clock)) {
            CyclicBehaviour("poll", every: .seconds(2)) { context in
                event.yield("poll")
                context.stopRepeating()
            }
            TickerBehaviour("tick", period: .seconds(3)) { context, tick in
                event.yield("tick \(tick)")
                if tick == 2 { context.stopRepeating() }
            }
            WakerBehaviour("alarm", after: .seconds(5)) { _ in event.yield("wake") }
        }
        var probe = await EventProbe(agent)
        var seen = events.makeAsyncIterator()
        try await agent.start()

        await clock.waitForSleepers(3)
        clock.advance(by: .seconds(2))
        #expect(await seen.next() == "poll")
        #expect(await probe.waitFor(.behaviourFinished("poll")))
        await clock.waitForSleepers(2)
        clock.advance(by: .seconds(1))  // t = 3
        #expect(await seen.next() == "tick 1")
        await clock.waitForSleepers(2)
        clock.advance(by: .seconds(2))  // t = 5
        #expect(await seen.next() == "wake")
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))  // t = 6
        #expect(await seen.next() == "tick 2")
        // The waker is removed after its "wake", maybe after the ticker's end: wait for both.
        #expect(await probe.waitForFinished(["tick", "alarm"]))
        #expect(await agent.behaviourCount == 0)
    }

    @Test("sequential, parallel and FSM behaviours compose children")
    func compositeBehaviours() async throws {
        let runs = Recorder<String>()
        let fsm = FSMBehaviour(
            "triage", initial: "measure",
            states: [
                .init("measure") { _ in runs.append("measure"); return "high" },
                .init("alert") { _ in runs.append("alert"); return "done" },
                .init("end", isFinal: true) { _ in runs.append("end"); return "" },
            ],
            transitions: ["measure": ["high": "alert", "normal": "end"], "alert": ["done": "end"]])
        let agent = Agent("Composer", on: Environment()) {
            SequentialBehaviour("steps") {
                OneShotBehaviour { _ in runs.append("one") }
                ParallelBehaviour(finishWhen: .all) {
                    OneShotBehaviour { _ in runs.append("left") }
                    OneShotBehaviour { _ in runs.append("right") }
                }
                OneShotBehaviour { _ in runs.append("two") }
                fsm
            }
        }
        var probe = await EventProbe(agent)
        try await agent.start()
        #expect(await probe.waitFor(.behaviourFinished("steps")))
        let all = runs.all
        #expect(all.first == "one")
        #expect(Set(all[1...2]) == ["left", "right"])
        #expect(Array(all[3...]) == ["two", "measure", "alert", "end"])
    }

    @Test("a parallel behaviour finishing on the first child cancels the others")
    func parallelAny() async throws {
        let clock = ManualClock()
        let agent = Agent("Racer", on: Environment(clock: clock)) {
            ParallelBehaviour("race", finishWhen: .any) {
                OneShotBehaviour { _ in }
                WakerBehaviour(after: .seconds(3600)) { _ in Issue.record("the slow child should be cancelled") }
            }
        }
        var probe = await EventProbe(agent)
        try await agent.start()
        #expect(await probe.waitFor(.behaviourFinished("race")))
        #expect(clock.sleeperCount == 0)
    }

    @Test("an FSM without a transition for an event fails with a typed error, reported as an event")
    func fsmMissingTransition() async throws {
        let agent = Agent("Lost", on: Environment()) {
            FSMBehaviour("machine", initial: "a", states: [.init("a") { _ in "nowhere" }], transitions: [:])
        }
        var probe = await EventProbe(agent)
        try await agent.start()
        let failure = await probe.next { if case .failed = $0 { true } else { false } }
        #expect(failure == .failed(activity: "behaviour machine", reason: "\(FSMBehaviour.FSMError.noTransition(state: "a", event: "nowhere"))"))
    }

    @Test("a behaviour added later starts at once; suspending cancels it and resuming restarts it")
    func addAndSuspendBehaviour() async throws {
        let clock = ManualClock()
        let (ticks, tick) = AsyncStream.makeStream(of: Int.self)
        let agent = Agent(name: "Late", environment: Environment(clock: clock))
        try await agent.start()
        await agent.addBehaviour(TickerBehaviour(period: .seconds(1)) { _, number in tick.yield(number) })
        var seen = ticks.makeAsyncIterator()
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        #expect(await seen.next() == 1)

        try await agent.suspend()
        #expect(clock.sleeperCount == 0)
        try await agent.resume()
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        #expect(await seen.next() == 1, "a resumed behaviour starts over")
    }
}
