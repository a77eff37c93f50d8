/// The National Early Warning Score 2 of one set of observations (Royal College of
/// Physicians, 2017): a sub-score per parameter from ``NEWS2Chart``, their total, the
/// red flag and the clinical response band.
///
/// Missing parameters score nothing and are listed in ``missing``: a partial score
/// can only understate the patient's risk. When air or oxygen is not recorded the
/// patient is scored as on air (which matters for SpO2 scale 2 above 92 %).
///
/// ```swift
/// let score = try NEWS2Score(NEWS2Observations(
///     respirationRate: 22, oxygenSaturation: 95, onSupplementalOxygen: true,
///     systolicBloodPressure: 105, pulse: 115, consciousness: .alert, temperature: 38.5))
/// score.total  // 9
/// score.band   // .high
/// ```
public struct NEWS2Score: Hashable, Sendable {
    /// The observations scored.
    public let observations: NEWS2Observations
    /// The score of each recorded parameter, 0–3.
    public let subscores: [NEWS2Parameter: Int]
    /// The aggregate score, 0–20.
    public let total: Int
    /// Whether any single parameter scores 3 (the RCP's "red score").
    public let redFlag: Bool
    /// The clinical risk band.
    public let band: NEWS2Band

    /// Scores `observations`.
    ///
    /// - Throws: ``HealthError/invalidValue(field:reason:)`` when a value is
    ///   impossible (see ``NEWS2Observations/validate()``).
    public init(_ observations: NEWS2Observations) throws(HealthError) {
        try observations.validate()
        var subscores: [NEWS2Parameter: Int] = [:]
        let onOxygen = observations.onSupplementalOxygen ?? false
        if let rate = observations.respirationRate { subscores[.respirationRate] = NEWS2Chart.respirationRate(rate) }
        if let saturation = observations.oxygenSaturation {
            subscores[.oxygenSaturation] = NEWS2Chart.oxygenSaturation(saturation, scale: observations.spO2Scale, onOxygen: onOxygen)
        }
        if let oxygen = observations.onSupplementalOxygen { subscores[.airOrOxygen] = NEWS2Chart.airOrOxygen(onOxygen: oxygen) }
        if let pressure = observations.systolicBloodPressure {
            subscores[.systolicBloodPressure] = NEWS2Chart.systolicBloodPressure(pressure)
        }
        if let pulse = observations.pulse { subscores[.pulse] = NEWS2Chart.pulse(pulse) }
        if let level = observations.consciousness { subscores[.consciousness] = NEWS2Chart.consciousness(level) }
        if let celsius = observations.temperature { subscores[.temperature] = NEWS2Chart.temperature(celsius) }

        self.observations = observations
        self.subscores = subscores
        total = subscores.values.reduce(0, +)
        redFlag = subscores.values.contains(3)
        band = NEWS2Band(total: total, redFlag: redFlag)
    }

    /// The score of `parameter`, `nil` when it is missing.
    public func subscore(_ parameter: NEWS2Parameter) -> Int? { subscores[parameter] }

    /// The parameters that were not recorded, in chart order.
    public var missing: [NEWS2Parameter] { observations.missing }

    /// Whether all seven parameters were recorded.
    public var isComplete: Bool { missing.isEmpty }

    /// The parameters scoring 3, in chart order.
    public var redFlagParameters: [NEWS2Parameter] { NEWS2Parameter.allCases.filter { subscores[$0] == 3 } }

    /// The RCP's recommended clinical response.
    public var response: NEWS2Response { NEWS2Response(total: total, band: band) }
}

extension NEWS2Score: Codable {
    private enum CodingKeys: String, CodingKey {
        case observations, subscores, total, redFlag, band, missing
    }

    /// Encodes the observations and everything derived from them: `total`, `redFlag`,
    /// `band` (`low`, `low-medium`, `medium`, `high`), `subscores` keyed by parameter
    /// and `missing`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(observations, forKey: .observations)
        try container.encode(subscores, forKey: .subscores)
        try container.encode(total, forKey: .total)
        try container.encode(redFlag, forKey: .redFlag)
        try container.encode(band, forKey: .band)
        try container.encode(missing, forKey: .missing)
    }

    /// Decodes the observations and scores them again, so a decoded score is always
    /// consistent with the chart.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let observations = try container.decode(NEWS2Observations.self, forKey: .observations)
        do {
            try self.init(observations)
        } catch {
            throw DecodingError.dataCorruptedError(forKey: .observations, in: container, debugDescription: error.description)
        }
    }
}
