/// An ECG waveform: voltages sampled at a fixed frequency on one lead (HealthKit's
/// `HKElectrocardiogram` with its voltage measurements). Stores keep the voltages in
/// chunks, never one row per measurement.
public struct Electrocardiogram: Hashable, Sendable, Codable {
    /// Measurements per second, in hertz.
    public var samplingFrequency: Double
    /// The lead, e.g. `I` or `II` (an Apple Watch records lead I).
    public var lead: String
    /// The voltages in ``unit``, in time order.
    public var voltages: [Double]
    /// The voltages' unit; ``HealthUnit/microvolt`` by default.
    public var unit: HealthUnit
    /// The average heart rate over the recording, if known.
    public var averageHeartRate: Double?

    /// Creates a waveform.
    public init(samplingFrequency: Double, lead: String = "I", voltages: [Double], unit: HealthUnit = .microvolt, averageHeartRate: Double? = nil) {
        self.samplingFrequency = samplingFrequency
        self.lead = lead
        self.voltages = voltages
        self.unit = unit
        self.averageHeartRate = averageHeartRate
    }

    /// How long the recording lasts, in seconds.
    public var duration: Double { samplingFrequency > 0 ? Double(voltages.count) / samplingFrequency : 0 }
}
