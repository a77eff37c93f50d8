import Foundation

/// A monitored vital sign with the range that is typical for an adult at rest
/// (SADE4Health's `VitalSignType`); values outside are anomalies unless a patient
/// has an override.
public struct VitalSignType: Hashable, Sendable, Codable {
    /// The quantity measured.
    public var type: QuantityType
    /// A name for people, e.g. `Heart rate`.
    public var name: String
    /// The typical range in the type's canonical unit.
    public var typicalRange: ClosedRange<Double>

    /// Creates a vital-sign type.
    public init(_ type: QuantityType, name: String, typicalRange: ClosedRange<Double>) {
        self.type = type
        self.name = name
        self.typicalRange = typicalRange
    }

    /// The standard vital signs, with the ranges that score 0 on NEWS2 where NEWS2 has
    /// one, and those of the quantity types an app registered with a typical range.
    public static var standards: [VitalSignType] { registered.all }

    private static let registered = NameRegistry(builtIn, name: \.type.rawValue)

    /// An app's vital sign (see ``QuantityType/register(_:unit:possibleValues:aggregation:vitalSign:fhir:)``,
    /// which refuses another one for a type that has one).
    static func register(_ vitalSign: VitalSignType) throws(HealthError) {
        _ = try registered.add(vitalSign, names: [vitalSign.type.rawValue], isSame: ==) { name in
            .invalidValue(field: "vitalSign", reason: "\(name) has another typical range already")
        }
    }

    /// SADE's vital signs.
    static let builtIn: [VitalSignType] = [
        VitalSignType(.heartRate, name: "Heart rate", typicalRange: 51...90),
        VitalSignType(.respiratoryRate, name: "Respiratory rate", typicalRange: 12...20),
        VitalSignType(.oxygenSaturation, name: "Oxygen saturation", typicalRange: 96...100),
        VitalSignType(.bodyTemperature, name: "Body temperature", typicalRange: 36.1...38.0),
        VitalSignType(.bloodPressureSystolic, name: "Systolic blood pressure", typicalRange: 111...219),
        VitalSignType(.bloodPressureDiastolic, name: "Diastolic blood pressure", typicalRange: 50...90),
        VitalSignType(.heartRateVariabilitySDNN, name: "Heart rate variability (SDNN)", typicalRange: 20...200),
    ]

    /// The standard vital sign for `type`, if it is one.
    public static func standard(for type: QuantityType) -> VitalSignType? {
        registered[type.rawValue]
    }
}

/// One reading of a vital sign of a patient (SADE4Health's `PatientVitalSign`).
public struct PatientVitalSign: Hashable, Sendable, Codable {
    /// Whose.
    public var patient: PatientID
    /// Which vital sign.
    public var type: QuantityType
    /// The value in the type's canonical unit.
    public var value: Double
    /// When it was measured.
    public var date: Date

    /// Creates a reading.
    public init(patient: PatientID, type: QuantityType, value: Double, date: Date) {
        self.patient = patient
        self.type = type
        self.value = value
        self.date = date
    }

    /// The reading a quantity sample holds; `nil` for other samples.
    public init?(_ sample: HealthSample) {
        guard case .quantity(let type) = sample.type, let value = sample.canonicalValue else { return nil }
        self.init(patient: sample.patient, type: type, value: value, date: sample.start)
    }
}
