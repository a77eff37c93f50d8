import Foundation

extension NEWS2Score {
    /// Scores the latest value of each NEWS2 parameter among one patient's samples.
    ///
    /// A sample counts when it ended within `window` before `now` (`now - window ...
    /// now`, bounds included); of those, the one that ended last gives the
    /// parameter's value (on a tie, the later one in `samples`). Quantity samples
    /// are converted to the chart's units (°F → °C); systolic pressure is also read
    /// from blood-pressure correlations; consciousness and air or oxygen come from
    /// the ``CategoryType/consciousnessLevel`` and ``CategoryType/supplementalOxygen``
    /// category samples. Other samples are ignored; parameters without a recent
    /// sample are ``missing``.
    ///
    /// Supplemental oxygen is a state, not a measurement: it is recorded when it is
    /// switched on or off and holds until the next record. So the latest
    /// ``CategoryType/supplementalOxygen`` sample that ended by `now` counts however
    /// old it is; otherwise a patient put on oxygen hours ago would be scored as on
    /// air (and SpO2 on scale 2 scored as if the high values were harmless).
    ///
    /// - Parameters:
    ///   - samples: samples of a single patient, in any order.
    ///   - now: the time of scoring.
    ///   - window: how old, in seconds, a value may be and still count.
    ///   - scale2: score SpO2 on scale 2 (see ``Patient/usesSpO2Scale2``).
    /// - Throws: ``HealthError/invalidValue(field:reason:)`` when the samples are about
    ///   more than one patient or a value is impossible;
    ///   ``HealthError/incompatibleUnits(from:to:)`` for a quantity in a wrong unit.
    public init(latestOf samples: [HealthSample], at now: Date, window: TimeInterval, scale2: Bool) throws(HealthError) {
        let patients = Set(samples.map(\.patient))
        guard patients.count <= 1 else {
            throw .invalidValue(
                field: "patient", reason: "NEWS2 scores one patient; samples are about \(patients.sorted().map(\.rawValue))")
        }
        let earliest = now.addingTimeInterval(-window)
        var latest: [NEWS2Parameter: HealthSample] = [:]
        for sample in samples.flatMap(Self.flattened) where sample.end <= now {
            guard let parameter = Self.parameter(of: sample), sample.end >= earliest || parameter == .airOrOxygen else { continue }
            if let current = latest[parameter], current.end > sample.end { continue }
            latest[parameter] = sample
        }

        var observations = NEWS2Observations(spO2Scale: scale2 ? .scale2 : .scale1)
        for (parameter, sample) in latest {
            switch sample.value {
            case .quantity(let quantity):
                guard let type = parameter.quantityType else { continue }
                let value = try quantity.value(in: type.canonicalUnit)
                switch parameter {
                case .respirationRate: observations.respirationRate = value
                case .oxygenSaturation: observations.oxygenSaturation = value
                case .systolicBloodPressure: observations.systolicBloodPressure = value
                case .pulse: observations.pulse = value
                case .temperature: observations.temperature = value
                case .airOrOxygen, .consciousness: break
                }
            case .category(let raw):
                if parameter == .consciousness {
                    guard let level = ConsciousnessLevel(rawValue: raw) else {
                        throw .invalidValue(field: "consciousnessLevel", reason: "\(raw) is not an ACVPU level (0–4)")
                    }
                    observations.consciousness = level
                } else if parameter == .airOrOxygen {
                    guard raw == 0 || raw == 1 else {
                        throw .invalidValue(field: "supplementalOxygen", reason: "\(raw) is neither 0 (air) nor 1 (oxygen)")
                    }
                    observations.onSupplementalOxygen = raw == 1
                }
            case .correlation, .electrocardiogram:
                continue
            }
        }
        try self.init(observations)
    }

    /// The sample itself, or a correlation's members.
    private static func flattened(_ sample: HealthSample) -> [HealthSample] {
        if case .correlation(let members) = sample.value { return members }
        return [sample]
    }

    /// The NEWS2 parameter a sample records, if any.
    private static func parameter(of sample: HealthSample) -> NEWS2Parameter? {
        switch sample.type {
        case .quantity(let type): NEWS2Parameter.allCases.first { $0.quantityType == type }
        case .category(let type): NEWS2Parameter.allCases.first { $0.categoryType == type }
        case .correlation, .electrocardiogram: nil
        }
    }
}
