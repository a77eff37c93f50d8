/// The seven rows of the NEWS2 chart (Royal College of Physicians, 2017), in the
/// chart's order.
public enum NEWS2Parameter: String, CaseIterable, Hashable, Sendable, Codable, CodingKeyRepresentable, CustomStringConvertible {
    /// Breaths per minute.
    case respirationRate
    /// Peripheral oxygen saturation in %, on scale 1 or scale 2.
    case oxygenSaturation
    /// Whether the patient breathes air or supplemental oxygen.
    case airOrOxygen
    /// Systolic blood pressure in mmHg.
    case systolicBloodPressure
    /// Beats per minute.
    case pulse
    /// Level of consciousness on the ACVPU scale (C is new confusion).
    case consciousness
    /// Body temperature in °C.
    case temperature

    /// The quantity type a measured parameter is read from; `nil` for the two
    /// category parameters (air or oxygen, consciousness).
    public var quantityType: QuantityType? {
        switch self {
        case .respirationRate: .respiratoryRate
        case .oxygenSaturation: .oxygenSaturation
        case .systolicBloodPressure: .bloodPressureSystolic
        case .pulse: .heartRate
        case .temperature: .bodyTemperature
        case .airOrOxygen, .consciousness: nil
        }
    }

    /// The category type a non-measured parameter is read from.
    public var categoryType: CategoryType? {
        switch self {
        case .airOrOxygen: .supplementalOxygen
        case .consciousness: .consciousnessLevel
        default: nil
        }
    }

    /// The row's name on the chart, for people.
    public var title: String {
        switch self {
        case .respirationRate: "Respiration rate"
        case .oxygenSaturation: "SpO2"
        case .airOrOxygen: "Air or oxygen"
        case .systolicBloodPressure: "Systolic blood pressure"
        case .pulse: "Pulse"
        case .consciousness: "Consciousness"
        case .temperature: "Temperature"
        }
    }

    /// The identifier, e.g. `respirationRate`.
    public var description: String { rawValue }
}
