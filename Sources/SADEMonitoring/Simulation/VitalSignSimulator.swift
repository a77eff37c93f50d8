import Foundation
import SADECore
import SADEHealth

/// A simulated bedside monitor for one patient: deterministic vital signs for any
/// moment, fixed by a seed, following a ``Profile``.
///
/// The simulator has no state and no clock: ``vitalSigns(at:)`` and ``samples(at:)``
/// are functions of the seed, the patient and the time since ``start``, so the same
/// seed gives the same readings — and the same sample ids — in a test, in the server's
/// demo and in `sade simulate`.
///
/// ```swift
/// let monitor = VitalSignSimulator(patient: "patient-03", profile: .deteriorating, seed: 3, start: admission)
/// let samples = monitor.samples(at: admission.addingTimeInterval(600))  // HR, SpO2, RR, temp, BP, ACVPU, O2
/// ```
public struct VitalSignSimulator: Hashable, Sendable {
    /// How the simulated patient's vital signs evolve.
    public enum Profile: String, CaseIterable, Hashable, Sendable, Codable {
        /// Steady, healthy values: NEWS2 0 (2 on a respirator, for the oxygen).
        case normal
        /// Normal, then after ``Configuration/deteriorationDelay`` drifting over
        /// ``Configuration/deteriorationSpan`` to NEWS2 well above 7, and staying there.
        case deteriorating
        /// Normal with more jitter and, now and then, one reading out of range for a
        /// single tick (NEWS2 never above 3): should page nobody.
        case noisy
        /// Normal values, but the device goes silent for ``Configuration/silentFor`` in
        /// every ``Configuration/dropoutCycle``.
        case droppingOut
    }

    /// Timings and rates of the profiles.
    public struct Configuration: Hashable, Sendable {
        /// How long a deteriorating patient stays normal first. Default 5 minutes.
        public var deteriorationDelay: TimeInterval
        /// How long the drift to the worst values takes. Default 30 minutes.
        public var deteriorationSpan: TimeInterval
        /// The chance of a noisy patient's reading having one spike. Default 0.05.
        public var spikeProbability: Double
        /// A dropping-out device's on-and-off cycle. Default 30 minutes.
        public var dropoutCycle: TimeInterval
        /// How long it is silent at the end of each cycle. Default 20 minutes.
        public var silentFor: TimeInterval

        /// Creates a configuration; every value has a default.
        public init(
            deteriorationDelay: TimeInterval = 5 * 60, deteriorationSpan: TimeInterval = 30 * 60, spikeProbability: Double = 0.05,
            dropoutCycle: TimeInterval = 30 * 60, silentFor: TimeInterval = 20 * 60
        ) {
            self.deteriorationDelay = deteriorationDelay
            self.deteriorationSpan = deteriorationSpan
            self.spikeProbability = spikeProbability
            self.dropoutCycle = dropoutCycle
            self.silentFor = silentFor
        }
    }

    /// Whose vital signs.
    public let patient: PatientID
    /// How they evolve.
    public let profile: Profile
    /// Fixes every value.
    public let seed: UInt64
    /// Whether the patient is on a respirator (breathes supplemental oxygen).
    public let onRespirator: Bool
    /// Time zero of the profile (admission).
    public let start: Date
    /// The device named in the samples, e.g. `monitor-patient-03`.
    public let device: String
    /// Timings and rates.
    public let configuration: Configuration

    /// Creates a simulator.
    public init(
        patient: PatientID, profile: Profile, seed: UInt64, onRespirator: Bool = false, start: Date, device: String? = nil,
        configuration: Configuration = Configuration()
    ) {
        self.patient = patient
        self.profile = profile
        self.seed = seed
        self.onRespirator = onRespirator
        self.start = start
        self.device = device ?? "monitor-\(patient.rawValue)"
        self.configuration = configuration
    }

    /// The vital signs at `date`; `nil` while a dropping-out device is silent.
    public func vitalSigns(at date: Date) -> VitalSigns? {
        let elapsed = date.timeIntervalSince(start)
        if profile == .droppingOut, isSilent(at: elapsed) { return nil }
        var random = random(at: elapsed)
        let base = baseline
        switch profile {
        case .normal, .droppingOut:
            return base.jittered(by: 1, using: &random)
        case .noisy:
            var signs = base.jittered(by: 2, using: &random)
            if Double.random(in: 0..<1, using: &random) < configuration.spikeProbability { signs.spike(using: &random) }
            return signs
        case .deteriorating:
            let progress = min(1, max(0, (elapsed - configuration.deteriorationDelay) / max(1, configuration.deteriorationSpan)))
            return base.drifted(toward: .worst(onOxygen: onRespirator), by: progress).jittered(by: progress > 0 ? 0.5 : 1, using: &random)
        }
    }

    /// The samples the monitor sends at `date`: heart rate, SpO2, respiratory rate,
    /// temperature, a blood-pressure correlation, consciousness and supplemental
    /// oxygen; none while silent. Their ids are fixed by the seed and the time.
    public func samples(at date: Date) -> [HealthSample] {
        guard let signs = vitalSigns(at: date) else { return [] }
        var tickRandom = random(at: date.timeIntervalSince(start))
        var ids = SeededRandom(seed: tickRandom.next() ^ 0x5EED)
        func quantity(_ type: QuantityType, _ value: Double) -> HealthSample {
            .quantity(type, value, patient: patient, at: date, device: device, source: "simulator", id: ids.uuid())
        }
        return [
            quantity(.heartRate, signs.heartRate),
            quantity(.oxygenSaturation, signs.oxygenSaturation),
            quantity(.respiratoryRate, signs.respiratoryRate),
            quantity(.bodyTemperature, signs.bodyTemperature),
            HealthSample(
                id: ids.uuid(), patient: patient, type: .correlation(.bloodPressure),
                value: .correlation([
                    quantity(.bloodPressureSystolic, signs.systolicBloodPressure),
                    quantity(.bloodPressureDiastolic, signs.diastolicBloodPressure),
                ]),
                start: date, device: device, source: "simulator"),
            .category(.consciousnessLevel, signs.consciousness.rawValue, patient: patient, at: date, device: device, source: "simulator", id: ids.uuid()),
            .category(.supplementalOxygen, signs.onSupplementalOxygen ? 1 : 0, patient: patient, at: date, device: device, source: "simulator", id: ids.uuid()),
        ]
    }

    /// Whether a dropping-out device is silent `elapsed` seconds after the start.
    func isSilent(at elapsed: TimeInterval) -> Bool {
        let cycle = max(1, configuration.dropoutCycle)
        let phase = elapsed.truncatingRemainder(dividingBy: cycle)
        return (phase < 0 ? phase + cycle : phase) >= cycle - min(cycle, configuration.silentFor)
    }

    /// The patient's own resting values, fixed by the seed.
    var baseline: VitalSigns {
        var random = SeededRandom(seed: seed ^ SeededRandom.stableHash(patient.rawValue))
        return VitalSigns(
            heartRate: 68 + random.jitter(6), oxygenSaturation: 98 + random.jitter(1), respiratoryRate: 15 + random.jitter(1.5),
            bodyTemperature: 36.8 + random.jitter(0.3), systolicBloodPressure: 124 + random.jitter(8),
            diastolicBloodPressure: 76 + random.jitter(5), consciousness: .alert, onSupplementalOxygen: onRespirator)
    }

    /// The generator for the reading `elapsed` seconds after the start (to the millisecond).
    private func random(at elapsed: TimeInterval) -> SeededRandom {
        let tick = UInt64(bitPattern: Int64((elapsed * 1000).rounded()))
        return SeededRandom(seed: seed ^ SeededRandom.stableHash(patient.rawValue) ^ (tick &* 0x9E37_79B9_7F4A_7C15))
    }
}
