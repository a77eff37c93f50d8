/// A series of measurements at a fixed interval (FHIR `SampledData`), used for ECG
/// waveforms: `value = origin + factor × datum`, one datum every `period` ms.
public struct FHIRSampledData: Codable, Hashable, Sendable {
    /// The zero value and the unit of the data.
    public var origin: FHIRQuantity
    /// Milliseconds between two measurements.
    public var period: Double
    /// The multiplier applied to each datum; 1 when absent.
    public var factor: Double?
    /// The lowest value the device can measure.
    public var lowerLimit: Double?
    /// The highest value the device can measure.
    public var upperLimit: Double?
    /// Values per time point; 1 for one lead.
    public var dimensions: Int
    /// The measurements, decimals separated by single spaces (`E`, `L`, `U` mark
    /// errors and values beyond the limits).
    public var data: String?

    /// Creates sampled data.
    public init(origin: FHIRQuantity, period: Double, factor: Double? = nil, lowerLimit: Double? = nil,
                upperLimit: Double? = nil, dimensions: Int, data: String?) {
        self.origin = origin
        self.period = period
        self.factor = factor
        self.lowerLimit = lowerLimit
        self.upperLimit = upperLimit
        self.dimensions = dimensions
        self.data = data
    }
}
