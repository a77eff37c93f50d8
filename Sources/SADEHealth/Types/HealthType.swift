/// How samples of a quantity type combine over time (as in HealthKit): discrete
/// values (heart rate) have min, max, average and most recent; cumulative ones
/// (steps) have a sum.
public enum AggregationStyle: String, Hashable, Sendable, Codable {
    case discrete, cumulative
}

/// The measured kinds of quantity, with their canonical unit and the values a
/// sample may have at all (what is physically possible, not what is healthy).
public enum QuantityType: String, CaseIterable, Hashable, Sendable, Codable {
    case heartRate, oxygenSaturation, bodyTemperature, respiratoryRate
    case bloodPressureSystolic, bloodPressureDiastolic, stepCount, bodyMass, heartRateVariabilitySDNN

    /// The unit values are stored in.
    public var canonicalUnit: HealthUnit {
        switch self {
        case .heartRate, .respiratoryRate: .countPerMinute
        case .oxygenSaturation: .percent
        case .bodyTemperature: .degreeCelsius
        case .bloodPressureSystolic, .bloodPressureDiastolic: .millimeterOfMercury
        case .stepCount: .count
        case .bodyMass: .kilogram
        case .heartRateVariabilitySDNN: .millisecond
        }
    }

    /// Discrete or cumulative.
    public var aggregation: AggregationStyle { self == .stepCount ? .cumulative : .discrete }

    /// The values a sample can have, in the canonical unit; anything outside is rejected.
    public var possibleValues: ClosedRange<Double> {
        switch self {
        case .heartRate: 0...350
        case .oxygenSaturation: 0...100
        case .bodyTemperature: 25...45
        case .respiratoryRate: 0...120
        case .bloodPressureSystolic, .bloodPressureDiastolic: 0...350
        case .stepCount: 0...1_000_000
        case .bodyMass: 0...700
        case .heartRateVariabilitySDNN: 0...2000
        }
    }
}

/// Kinds of observation whose value is one of a few categories (HealthKit's
/// category types).
public enum CategoryType: String, CaseIterable, Hashable, Sendable, Codable {
    /// Level of consciousness on the ACVPU scale; values are ``ConsciousnessLevel`` raw values.
    case consciousnessLevel
    /// Whether the patient breathes supplemental oxygen: 0 air, 1 oxygen.
    case supplementalOxygen

    /// The values a sample may have.
    public var possibleValues: ClosedRange<Int> {
        switch self {
        case .consciousnessLevel: 0...4
        case .supplementalOxygen: 0...1
        }
    }
}

/// The ACVPU scale of NEWS2: alert, new confusion, voice, pain, unresponsive.
public enum ConsciousnessLevel: Int, CaseIterable, Hashable, Sendable, Codable {
    case alert = 0, confusion, voice, pain, unresponsive
}

/// Samples that belong together (HealthKit's correlation types).
public enum CorrelationType: String, CaseIterable, Hashable, Sendable, Codable {
    /// Systolic and diastolic pressure measured together.
    case bloodPressure

    /// The quantity types a correlation of this kind holds.
    public var memberTypes: Set<QuantityType> { [.bloodPressureSystolic, .bloodPressureDiastolic] }
}

/// Any kind of sample the store keeps; its ``identifier`` is the quantity, category
/// or correlation type's name, or `electrocardiogram`.
public enum HealthType: Hashable, Sendable, Codable, CustomStringConvertible {
    case quantity(QuantityType)
    case category(CategoryType)
    case correlation(CorrelationType)
    /// A waveform (``Electrocardiogram``).
    case electrocardiogram

    /// Every type.
    public static let all: [HealthType] =
        QuantityType.allCases.map(HealthType.quantity) + CategoryType.allCases.map(HealthType.category)
        + CorrelationType.allCases.map(HealthType.correlation) + [.electrocardiogram]

    /// The type's name, e.g. `heartRate`, `consciousnessLevel`, `bloodPressure`.
    public var identifier: String {
        switch self {
        case .quantity(let type): type.rawValue
        case .category(let type): type.rawValue
        case .correlation(let type): type.rawValue
        case .electrocardiogram: "electrocardiogram"
        }
    }

    /// The type named `identifier`.
    public init(identifier: String) throws(HealthError) {
        if let quantity = QuantityType(rawValue: identifier) {
            self = .quantity(quantity)
        } else if let category = CategoryType(rawValue: identifier) {
            self = .category(category)
        } else if let correlation = CorrelationType(rawValue: identifier) {
            self = .correlation(correlation)
        } else if identifier == "electrocardiogram" {
            self = .electrocardiogram
        } else {
            throw .unknownType(identifier)
        }
    }

    /// The identifier.
    public var description: String { identifier }

    /// Encodes the identifier.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(identifier)
    }

    /// Decodes an identifier; unknown ones are an error.
    public init(from decoder: any Decoder) throws {
        let identifier = try decoder.singleValueContainer().decode(String.self)
        do {
            self = try HealthType(identifier: identifier)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }
}
