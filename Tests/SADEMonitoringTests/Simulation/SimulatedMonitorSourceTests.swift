import Foundation
import SADECore
import SADEHealth
import SADEMonitoring
import SADETestTiming
import Testing

@Suite("Simulated monitors as a data source", .timeLimit(.minutes(5)), .timed)
struct SimulatedMonitorSourceTests {
    static let epoch = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("each pull gives the readings of the ticks since the last one, dated at the ticks")
    func ticksOnThePlatformClock() async {
        let clock = ManualClock()
        let platform = PlatformClock(clock)
        let simulators = ["p-1", "p-2"].map { VitalSignSimulator(patient: PatientID($0), profile: .normal, seed: 1, start: Self.epoch) }
        let source = SimulatedMonitorSource(simulators: simulators, interval: .seconds(5), clock: platform, epoch: Self.epoch)
        #expect(await source.newSamples().isEmpty, "nothing before the first tick")
        clock.advance(by: .seconds(4))
        #expect(await source.newSamples().isEmpty)
        clock.advance(by: .seconds(11))
        let samples = await source.newSamples()
        #expect(samples.count == 3 * 2 * 7)
        #expect(Set(samples.map(\.start)) == Set([5, 10, 15].map { Self.epoch.addingTimeInterval($0) }))
        let expected = [5, 10, 15].flatMap { offset in simulators.flatMap { $0.samples(at: Self.epoch.addingTimeInterval(offset)) } }
        #expect(samples.map(\.id) == expected.map(\.id))
        #expect(await source.newSamples().isEmpty, "each tick is read once")

        await source.remove("p-2")
        clock.advance(by: .seconds(5))
        #expect(Set(await source.newSamples().map(\.patient)) == ["p-1"])
        #expect(await source.patients == ["p-1"])
    }

    @Test("after a long pause only the latest ticks are caught up")
    func catchUpIsBounded() async {
        let clock = ManualClock()
        let simulator = VitalSignSimulator(patient: "p-1", profile: .normal, seed: 1, start: Self.epoch)
        let source = SimulatedMonitorSource(
            simulators: [simulator], interval: .seconds(1), clock: PlatformClock(clock), epoch: Self.epoch, maxTicksPerPull: 10)
        clock.advance(by: .seconds(1000))
        let samples = await source.newSamples()
        #expect(samples.count == 10 * 7)
        #expect(samples.map(\.start).max() == Self.epoch.addingTimeInterval(1000))
        #expect(samples.map(\.start).min() == Self.epoch.addingTimeInterval(991))
    }
}
