import SADEACL
import SADECore
import Synchronization
import SADETestTiming
import Testing

/// The "Your first agent" example of the README, kept compiling and working.
@Suite("README example", .timeLimit(.minutes(3)), .timed)
struct ReadmeExampleTests {
    @Test("the Alarmed agent's alarm makes the Fireman agree and put the fire out")
    func firstAgent() async throws {
        let smoke = Atomic<Bool>(false)
        @Sendable func smokeDetected() -> Bool { smoke.exchange(false, ordering: .relaxed) }
        let clock = ManualClock()

        let platform = Environment(name: "home", clock: clock)
        let fireman = Agent("Fireman", on: platform) {
            Belief(.isInFire, false)
            Goal.maintain("no fire", .belief(.isInFire, is: false)) {
                Plan("extinguish") {
                    OneShotAction("throw water") { context in
                        await context.setBelief(.isInFire, to: false)
                    }
                }
            }
            MessageHandler.on(.inform) { agent, alarm in
                agent.setBelief(.isInFire, to: true)
                agent.send(alarm.makeReply(.agree))
            }
        }
        let alarmed = Agent("Alarmed", on: platform, runBDICycleOnStart: true) {
            Goal("watch") {
                Plan("patrol") {
                    CyclicAction("check fire", every: .seconds(10)) { context in
                        if smokeDetected() {
                            context.send(ACLMessage(.inform, receivers: ["Fireman"], content: "(fire)"))
                        }
                    }
                }
            }
        }
        var firemanProbe = await EventProbe(fireman)
        var alarmedProbe = await EventProbe(alarmed)
        try await fireman.start()
        try await alarmed.start()

        smoke.store(true, ordering: .relaxed)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(10))

        #expect(await alarmedProbe.nextMessage()?.performative == .agree)
        #expect(await firemanProbe.waitFor(.goalStatusChanged(goal: "no fire", status: .executing)))
        #expect(await firemanProbe.waitFor(.goalStatusChanged(goal: "no fire", status: .achieved)))
        #expect(await fireman.beliefs[.isInFire] == false)
    }
}
