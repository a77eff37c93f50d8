import Foundation
import SADEHealth
import SADEMonitoring
import SADETestTiming
import Testing

@Suite("The vital-sign simulator", .timeLimit(.minutes(5)), .timed)
struct VitalSignSimulatorTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// Every minute for `hours`.
    static func minutes(_ hours: Int) -> [Date] {
        (1...(hours * 60)).map { start.addingTimeInterval(Double($0) * 60) }
    }

    static func simulator(_ profile: VitalSignSimulator.Profile, seed: UInt64 = 1, onRespirator: Bool = false) -> VitalSignSimulator {
        VitalSignSimulator(patient: PatientID("patient-\(seed)"), profile: profile, seed: seed, onRespirator: onRespirator, start: start)
    }

    @Test("the same seed gives the same samples, ids included; another seed other values", arguments: VitalSignSimulator.Profile.allCases)
    func deterministic(profile: VitalSignSimulator.Profile) {
        let one = Self.simulator(profile, seed: 42), again = Self.simulator(profile, seed: 42), other = Self.simulator(profile, seed: 43)
        let times = Self.minutes(2)
        let same = times.map(one.samples) == times.map(again.samples)
        #expect(same)
        let different = times.map(one.vitalSigns) != times.map(other.vitalSigns)
        #expect(different)
        let ids = times.flatMap(one.samples).flatMap { [$0] + ($0.value.members) }.map(\.id)
        #expect(Set(ids).count == ids.count, "every sample has its own id")
    }

    @Test("a reading is seven valid samples of the types the pipeline reads, blood pressure as a correlation")
    func readingsAreValidSamples() throws {
        let samples = Self.simulator(.normal, onRespirator: true).samples(at: Self.start.addingTimeInterval(60))
        #expect(samples.map(\.type.identifier) == [
            "heartRate", "oxygenSaturation", "respiratoryRate", "bodyTemperature", "bloodPressure", "consciousnessLevel", "supplementalOxygen",
        ])
        for sample in samples { try sample.validate() }
        #expect(samples.allSatisfy { $0.patient == "patient-1" && $0.device == "monitor-patient-1" })
        #expect(samples.last?.value == .category(1), "a patient on a respirator breathes supplemental oxygen")
    }

    @Test("a normal patient scores NEWS2 0 (2 on a respirator, for the oxygen) all day", arguments: [1, 2, 3, 4, 5] as [UInt64])
    func normalScoresZero(seed: UInt64) throws {
        for respirator in [false, true] {
            let simulator = Self.simulator(.normal, seed: seed, onRespirator: respirator)
            let scores = try Self.minutes(24).map { try #require(simulator.vitalSigns(at: $0)).news2().total }
            #expect(Set(scores) == [respirator ? 2 : 0])
        }
    }

    @Test("a deteriorating patient is normal first, then drifts past NEWS2 7 within the span and stays there", arguments: [1, 2, 3] as [UInt64])
    func deterioratingReachesSeven(seed: UInt64) throws {
        let simulator = Self.simulator(.deteriorating, seed: seed)
        func score(atMinute minute: Double) throws -> Int {
            try #require(simulator.vitalSigns(at: Self.start.addingTimeInterval(minute * 60))).news2().total
        }
        #expect(try (0...5).map { try score(atMinute: Double($0)) }.allSatisfy { $0 <= 1 })
        #expect(try score(atMinute: 35) >= 7)
        #expect(try (35...240).map { try score(atMinute: Double($0)) }.allSatisfy { $0 >= 7 })
        let drift = try stride(from: 5.0, through: 35, by: 5).map { try score(atMinute: $0) }
        #expect(drift == drift.sorted(), "the score only goes up: \(drift)")
    }

    @Test("a noisy patient has single out-of-range readings but never scores above 3", arguments: [1, 2, 3] as [UInt64])
    func noisyStaysLow(seed: UInt64) throws {
        let simulator = Self.simulator(.noisy, seed: seed)
        let readings = try Self.minutes(12).map { try #require(simulator.vitalSigns(at: $0)) }
        let scores = try readings.map { try $0.news2().total }
        #expect(scores.max() ?? 0 <= 3)
        let spikes = readings.filter { $0.heartRate > 90 || $0.oxygenSaturation < 96 || $0.respiratoryRate > 20 || $0.bodyTemperature > 38 }
        #expect(spikes.count > 10 && spikes.count < readings.count / 10, "about one reading in twenty: \(spikes.count)")
    }

    @Test("a dropping-out device is silent for twenty minutes in every half hour")
    func droppingOutGoesSilent() {
        let simulator = Self.simulator(.droppingOut)
        let silent = Self.minutes(3).map { simulator.samples(at: $0).isEmpty }
        #expect(silent.filter { $0 }.count == 3 * 40)
        #expect(Array(silent[0..<9]).allSatisfy { !$0 }, "on for the first ten minutes")
        #expect(Array(silent[9..<29]).allSatisfy { $0 }, "then silent for twenty")
        #expect(simulator.vitalSigns(at: Self.start.addingTimeInterval(15 * 60)) == nil)
    }
}

extension HealthSample.Value {
    /// A correlation's members; none for other values.
    var members: [HealthSample] {
        if case .correlation(let members) = self { return members }
        return []
    }
}
