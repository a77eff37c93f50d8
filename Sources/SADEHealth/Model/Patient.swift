import Foundation

/// Sex as recorded for clinical purposes (HealthKit's `HKBiologicalSex`).
public enum BiologicalSex: String, Hashable, Sendable, Codable, CaseIterable {
    case notSet, female, male, other
}

/// ABO and Rh blood type (HealthKit's `HKBloodType`).
public enum BloodType: String, Hashable, Sendable, Codable, CaseIterable {
    case notSet, aPositive, aNegative, bPositive, bNegative, abPositive, abNegative, oPositive, oNegative
}

/// A person whose health is monitored (SADE4Health's `Patient`, a hot spot).
///
/// Applications add what their patients need through ``attributes`` and typed views
/// over them, e.g. ``COVID19Patient`` with `onRespirator`; every store keeps the
/// attributes, so no schema change is needed.
public struct Patient: Hashable, Sendable, Codable, Identifiable {
    /// The identifier every sample refers to.
    public var id: PatientID
    /// Full name.
    public var name: String
    /// Date of birth, for ``age(at:)``.
    public var dateOfBirth: Date?
    /// Recorded sex.
    public var sex: BiologicalSex
    /// Blood type.
    public var bloodType: BloodType
    /// The sector the patient is interned in, if admitted.
    public var sector: SectorID?
    /// The bed, if admitted.
    public var bed: String?
    /// Typical ranges that differ from ``VitalSignType/standard`` for this patient,
    /// in each type's canonical unit (e.g. a lower SpO2 target for COPD).
    public var rangeOverrides: [QuantityType: ClosedRange<Double>]
    /// Whether NEWS2 should use SpO2 scale 2 (hypercapnic respiratory failure, target 88–92 %).
    public var usesSpO2Scale2: Bool
    /// Application-specific facts, read and written by typed views such as ``COVID19Patient``.
    public var attributes: [String: String]

    /// Creates a patient.
    public init(
        id: PatientID, name: String, dateOfBirth: Date? = nil, sex: BiologicalSex = .notSet, bloodType: BloodType = .notSet,
        sector: SectorID? = nil, bed: String? = nil, rangeOverrides: [QuantityType: ClosedRange<Double>] = [:],
        usesSpO2Scale2: Bool = false, attributes: [String: String] = [:]
    ) {
        self.id = id
        self.name = name
        self.dateOfBirth = dateOfBirth
        self.sex = sex
        self.bloodType = bloodType
        self.sector = sector
        self.bed = bed
        self.rangeOverrides = rangeOverrides
        self.usesSpO2Scale2 = usesSpO2Scale2
        self.attributes = attributes
    }

    /// Age in whole years at `date`, if the date of birth is known.
    public func age(at date: Date = Date()) -> Int? {
        guard let dateOfBirth else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.dateComponents([.year], from: dateOfBirth, to: date).year
    }

    /// The typical range of `type` for this patient: the override, else the standard.
    public func typicalRange(of type: QuantityType) -> ClosedRange<Double>? {
        rangeOverrides[type] ?? VitalSignType.standard(for: type)?.typicalRange
    }
}

/// The COVID-19 patient of SADE4Health §5.3: a ``Patient`` who may be on a respirator.
public struct COVID19Patient: Hashable, Sendable {
    /// The patient's record; ``onRespirator`` lives in its attributes.
    public var patient: Patient

    /// Views `patient` as a COVID-19 patient.
    public init(_ patient: Patient) { self.patient = patient }

    /// Whether the patient is on mechanical ventilation.
    public var onRespirator: Bool {
        get { patient.attributes["onRespirator"] == "true" }
        set { patient.attributes["onRespirator"] = newValue ? "true" : "false" }
    }
}
