import Foundation

/// How samples of a quantity type combine over time (as in HealthKit): discrete
/// values (heart rate) have min, max, average and most recent; cumulative ones
/// (steps) have a sum.
public enum AggregationStyle: String, Hashable, Sendable, Codable {
    case discrete, cumulative
}

/// The measured kinds of quantity, with their canonical unit and the values a
/// sample may have at all (what is physically possible, not what is healthy).
///
/// SADE knows the vital signs NEWS2 and the wearables need; an app adds its own kinds
/// with ``register(_:unit:possibleValues:aggregation:vitalSign:fhir:)`` at start-up,
/// before it opens a store or reads samples (a store, a decoder or the API knows only
/// the types registered in the process):
///
/// ```swift
/// // At start-up:
/// let litresPerMinute = try HealthUnit.register("L/min", dimension: HealthUnit.Dimension("flow"), aliases: ["l/min"])
/// let peakFlow = try QuantityType.register(
///     "peakExpiratoryFlow", unit: litresPerMinute, possibleValues: 0...1000,
///     vitalSign: (name: "Peak expiratory flow", typicalRange: 400...700),
///     fhir: FHIRCoding(system: FHIRSystem.loinc, code: "19935-6", display: "Maximum expiratory gas flow"))
/// ```
public struct QuantityType: RawRepresentable, CaseIterable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The type's identifier, e.g. `heartRate`.
    public let rawValue: String
    /// The unit values are stored in.
    public let canonicalUnit: HealthUnit
    /// Discrete or cumulative.
    public let aggregation: AggregationStyle
    /// The values a sample can have, in the canonical unit; anything outside is rejected.
    public let possibleValues: ClosedRange<Double>

    private init(_ rawValue: String, _ unit: HealthUnit, _ possibleValues: ClosedRange<Double>, _ aggregation: AggregationStyle = .discrete) {
        self.rawValue = rawValue
        canonicalUnit = unit
        self.possibleValues = possibleValues
        self.aggregation = aggregation
    }

    /// The registered type named `rawValue`, SADE's or an app's.
    public init?(rawValue: String) {
        guard let type = Self.registered[rawValue] else { return nil }
        self = type
    }

    public static let heartRate = QuantityType("heartRate", .countPerMinute, 0...350)
    public static let oxygenSaturation = QuantityType("oxygenSaturation", .percent, 0...100)
    public static let bodyTemperature = QuantityType("bodyTemperature", .degreeCelsius, 25...45)
    public static let respiratoryRate = QuantityType("respiratoryRate", .countPerMinute, 0...120)
    public static let bloodPressureSystolic = QuantityType("bloodPressureSystolic", .millimeterOfMercury, 0...350)
    public static let bloodPressureDiastolic = QuantityType("bloodPressureDiastolic", .millimeterOfMercury, 0...350)
    public static let stepCount = QuantityType("stepCount", .count, 0...1_000_000, .cumulative)
    public static let bodyMass = QuantityType("bodyMass", .kilogram, 0...700)
    public static let heartRateVariabilitySDNN = QuantityType("heartRateVariabilitySDNN", .millisecond, 0...2000)

    /// SADE's own types.
    public static let builtIn: [QuantityType] = [
        heartRate, oxygenSaturation, bodyTemperature, respiratoryRate, bloodPressureSystolic, bloodPressureDiastolic, stepCount, bodyMass,
        heartRateVariabilitySDNN,
    ]

    /// Every type: SADE's, then the app's in the order registered.
    public static var allCases: [QuantityType] { registered.all }

    private static let registered = NameRegistry(builtIn, name: \.rawValue)

    /// Adds an app's kind of quantity; registering the same definition again returns it.
    ///
    /// - Parameters:
    ///   - identifier: the type's name, letters and digits (e.g. `peakExpiratoryFlow`).
    ///   - unit: the unit values are stored in; samples may come in any unit of its dimension.
    ///   - possibleValues: what a sample may be at all, in `unit`.
    ///   - aggregation: `.cumulative` if values add up over time (like steps).
    ///   - vitalSign: a name and the range typical at rest, within `possibleValues`:
    ///     values outside are anomalies (``AnomalyDetector``) unless a patient has an override.
    ///   - fhir: how FHIR codes it (a LOINC code, say); without one, SADE's own code
    ///     system ``FHIRSystem/sade`` with the identifier as code.
    /// - Throws: ``HealthError/invalidValue(field:reason:)`` for a bad identifier, one
    ///   another definition has (SADE's types cannot be redefined), or infinite bounds.
    @discardableResult
    public static func register(
        _ identifier: String, unit: HealthUnit, possibleValues: ClosedRange<Double>, aggregation: AggregationStyle = .discrete,
        vitalSign: (name: String, typicalRange: ClosedRange<Double>)? = nil, fhir: FHIRCoding? = nil
    ) throws(HealthError) -> QuantityType {
        guard !identifier.isEmpty, identifier.unicodeScalars.allSatisfy({ CharacterSet.alphanumerics.contains($0) && $0.isASCII }) else {
            throw .invalidValue(field: "identifier", reason: "\(identifier.debugDescription) is not letters and digits")
        }
        guard CategoryType(rawValue: identifier) == nil, CorrelationType(rawValue: identifier) == nil, identifier != "electrocardiogram" else {
            throw .invalidValue(field: "identifier", reason: "\(identifier) names another kind of sample")
        }
        guard possibleValues.lowerBound.isFinite, possibleValues.upperBound.isFinite else {
            throw .invalidValue(field: "possibleValues", reason: "the bounds must be finite")
        }
        if let range = vitalSign?.typicalRange {
            guard range.lowerBound.isFinite, range.upperBound.isFinite, possibleValues.contains(range.lowerBound),
                possibleValues.contains(range.upperBound)
            else { throw .invalidValue(field: "vitalSign.typicalRange", reason: "must lie within the possible values") }
        }
        let type = QuantityType(identifier, unit, possibleValues, aggregation)
        let vital = vitalSign.map { VitalSignType(type, name: $0.name, typicalRange: $0.typicalRange) }
        if let known = QuantityType(rawValue: identifier) {
            // Again: the same definition, all of it, or nothing changes.
            guard known.isSameDefinition(as: type), vital == nil || VitalSignType.standard(for: known) == vital,
                fhir == nil || FHIRObservationCode.registeredCoding(of: known) == fhir
            else { throw .invalidValue(field: "identifier", reason: "\(identifier) is registered already, with another definition") }
            return known
        }
        // What goes with the type is in place before anyone can find the type.
        if let vital { try VitalSignType.register(vital) }
        if let fhir { try FHIRObservationCode.register(type, coding: fhir) }
        return try registered.add(type, names: [identifier], isSame: { $0.isSameDefinition(as: $1) }) { _ in
            .invalidValue(field: "identifier", reason: "\(identifier) is registered already, with another definition")
        }
    }

    private func isSameDefinition(as other: QuantityType) -> Bool {
        rawValue == other.rawValue && canonicalUnit == other.canonicalUnit && aggregation == other.aggregation
            && possibleValues == other.possibleValues
    }

    /// The identifier.
    public var description: String { rawValue }

    public static func == (lhs: QuantityType, rhs: QuantityType) -> Bool { lhs.rawValue == rhs.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    /// Encodes the identifier.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// Decodes an identifier; one no type was registered under is an error.
    public init(from decoder: any Decoder) throws {
        let identifier = try decoder.singleValueContainer().decode(String.self)
        guard let type = QuantityType(rawValue: identifier) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unknown quantity type \(identifier)"))
        }
        self = type
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

    /// Every type, the quantity types an app registered among them.
    public static var all: [HealthType] {
        QuantityType.allCases.map(HealthType.quantity) + CategoryType.allCases.map(HealthType.category)
            + CorrelationType.allCases.map(HealthType.correlation) + [.electrocardiogram]
    }

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
