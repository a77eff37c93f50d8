/// Whether a value lies outside the patient's typical range, as FHIR's
/// `ObservationInterpretation` codes say it.
///
/// A value above the typical range is `H`, below it `L`. It is critical (`HH`,
/// `LL`) when it lies farther outside than half the range's width: for a
/// respiratory rate of 12–20/min, above 24/min is `HH` and below 8/min is `LL` (close
/// to NEWS2's 3 points at 25 and more, 8 and less); for a heart rate of 51–90/min,
/// above 109.5/min is `HH` and below 31.5/min `LL`; for SpO2 of 96–100 %, below 94 %
/// is `LL`. The range is the patient's (``Patient/typicalRange(of:)``), so per-patient
/// overrides move both thresholds.
public enum FHIRInterpretation: String, CaseIterable, Hashable, Sendable {
    /// Below the typical range.
    case low = "L"
    /// Above the typical range.
    case high = "H"
    /// Below it by more than half its width.
    case criticallyLow = "LL"
    /// Above it by more than half its width.
    case criticallyHigh = "HH"

    /// The interpretation of `value` against `range`; `nil` when it is inside.
    public static func of(_ value: Double, typicalRange range: ClosedRange<Double>) -> FHIRInterpretation? {
        let margin = (range.upperBound - range.lowerBound) / 2
        if value > range.upperBound + margin { return .criticallyHigh }
        if value > range.upperBound { return .high }
        if value < range.lowerBound - margin { return .criticallyLow }
        if value < range.lowerBound { return .low }
        return nil
    }

    /// The interpretation of a `value` in `unit` of `type` for `patient`; `nil` when
    /// inside the range or when the type has no typical range.
    static func of(_ quantity: HealthQuantity, _ type: QuantityType, for patient: Patient) -> FHIRInterpretation? {
        guard let range = patient.typicalRange(of: type), let value = try? quantity.value(in: type.canonicalUnit) else { return nil }
        return of(value, typicalRange: range)
    }

    /// A name for people.
    public var display: String {
        switch self {
        case .low: "Low"
        case .high: "High"
        case .criticallyLow: "Critical low"
        case .criticallyHigh: "Critical high"
        }
    }

    /// As an Observation's `interpretation`.
    public var concept: FHIRCodeableConcept {
        FHIRCodeableConcept(coding: [FHIRCoding(system: FHIRSystem.interpretation, code: rawValue, display: display)])
    }
}
