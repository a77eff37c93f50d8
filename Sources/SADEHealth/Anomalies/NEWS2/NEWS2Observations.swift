/// Which SpO2 row of the NEWS2 chart applies to a patient.
public enum SpO2Scale: Int, CaseIterable, Hashable, Sendable, Codable {
    /// Scale 1: for most patients.
    case scale1 = 1
    /// Scale 2: only for hypercapnic respiratory failure with a prescribed target of
    /// 88–92 %, where saturations above the target on oxygen score, too.
    case scale2 = 2
}

/// One set of bedside observations to score with NEWS2. Any of them may be
/// missing; the score is then computed from those present (see
/// ``NEWS2Score/missing``). Values are in the chart's units: per minute, %, mmHg, °C.
public struct NEWS2Observations: Hashable, Sendable, Codable {
    /// Breaths per minute.
    public var respirationRate: Double?
    /// SpO2 in %.
    public var oxygenSaturation: Double?
    /// The SpO2 scale the patient is scored on.
    public var spO2Scale: SpO2Scale
    /// `true` on supplemental oxygen, `false` on air, `nil` when not recorded.
    public var onSupplementalOxygen: Bool?
    /// Systolic blood pressure in mmHg.
    public var systolicBloodPressure: Double?
    /// Pulse in beats per minute.
    public var pulse: Double?
    /// Level of consciousness (ACVPU).
    public var consciousness: ConsciousnessLevel?
    /// Body temperature in °C.
    public var temperature: Double?

    /// Creates a set of observations; everything not given is missing.
    public init(
        respirationRate: Double? = nil, oxygenSaturation: Double? = nil, spO2Scale: SpO2Scale = .scale1,
        onSupplementalOxygen: Bool? = nil, systolicBloodPressure: Double? = nil, pulse: Double? = nil,
        consciousness: ConsciousnessLevel? = nil, temperature: Double? = nil
    ) {
        self.respirationRate = respirationRate
        self.oxygenSaturation = oxygenSaturation
        self.spO2Scale = spO2Scale
        self.onSupplementalOxygen = onSupplementalOxygen
        self.systolicBloodPressure = systolicBloodPressure
        self.pulse = pulse
        self.consciousness = consciousness
        self.temperature = temperature
    }

    /// The value of a measured parameter, `nil` if missing or not a measured one.
    public func measurement(_ parameter: NEWS2Parameter) -> Double? {
        switch parameter {
        case .respirationRate: respirationRate
        case .oxygenSaturation: oxygenSaturation
        case .systolicBloodPressure: systolicBloodPressure
        case .pulse: pulse
        case .temperature: temperature
        case .airOrOxygen, .consciousness: nil
        }
    }

    /// Whether `parameter` was recorded.
    public func isPresent(_ parameter: NEWS2Parameter) -> Bool {
        switch parameter {
        case .airOrOxygen: onSupplementalOxygen != nil
        case .consciousness: consciousness != nil
        default: measurement(parameter) != nil
        }
    }

    /// The parameters not recorded, in chart order.
    public var missing: [NEWS2Parameter] { NEWS2Parameter.allCases.filter { !isPresent($0) } }

    /// Checks that every recorded value could be real: finite and within the
    /// possible values of its ``QuantityType`` (e.g. SpO2 0–100 %, temperature 25–45 °C).
    ///
    /// - Throws: ``HealthError/invalidValue(field:reason:)`` naming the parameter.
    public func validate() throws(HealthError) {
        for parameter in NEWS2Parameter.allCases {
            guard let value = measurement(parameter), let type = parameter.quantityType else { continue }
            guard value.isFinite else { throw .invalidValue(field: parameter.rawValue, reason: "is not a finite number") }
            let possible = type.possibleValues
            guard possible.contains(value) else {
                throw .invalidValue(
                    field: parameter.rawValue,
                    reason: "\(value) is outside the possible \(possible.lowerBound)–\(possible.upperBound) \(type.canonicalUnit)")
            }
        }
    }
}
