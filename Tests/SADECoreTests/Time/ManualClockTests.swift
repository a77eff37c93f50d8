import SADECore
import SADETestTiming
import Testing

@Suite("Manual clock", .timeLimit(.minutes(3)), .timed)
struct ManualClockTests {
    @Test("sleepers wake in deadline order once time reaches them")
    func wakesInOrder() async throws {
        let clock = ManualClock()
        let woken = Recorder<Int>()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for seconds in [3, 1, 2] {
                group.addTask {
                    try await clock.sleep(for: .seconds(seconds))
                    woken.append(seconds)
                }
            }
            await clock.waitForSleepers(3)
            clock.advance(by: .milliseconds(1500))
            try await group.next()
            #expect(woken.all == [1])
            #expect(clock.sleeperCount == 2)
            clock.advance(by: .seconds(10))
            try await group.waitForAll()
        }
        #expect(Set(woken.all) == [1, 2, 3])
        #expect(clock.now == ManualClock.Instant(offset: .milliseconds(11_500)))
    }

    @Test("a past deadline returns at once; cancellation throws and removes the sleeper")
    func pastDeadlineAndCancellation() async throws {
        let clock = ManualClock()
        try await clock.sleep(until: clock.now)
        let sleeper = Task { try await clock.sleep(for: .seconds(1)) }
        await clock.waitForSleepers(1)
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test("the platform clock reports elapsed manual time")
    func platformClockElapsed() {
        let clock = ManualClock()
        let platformClock = PlatformClock(clock)
        clock.advance(by: .seconds(42))
        #expect(platformClock.elapsed == .seconds(42))
    }
}
