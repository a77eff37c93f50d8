import Foundation
import SADEHealth

/// A patient's own typical range of one vital sign, as the API reads and writes it:
/// `{"lower": 88, "upper": 92, "unit": "%"}`. Read in `unit` (the type's canonical
/// unit when absent), stored and shown in the canonical unit.
struct Threshold: Codable, Hashable {
    let lower: Double
    let upper: Double
    let unit: String?

    /// The ranges in `thresholds` (keyed by quantity type) in canonical units.
    ///
    /// - Throws: 400 naming the entry when the type is unknown, the unit unknown or of
    ///   another dimension, a bound impossible for the type, or `lower` not below `upper`.
    static func ranges(_ thresholds: [String: Threshold], field: String = "thresholds") throws -> [QuantityType: ClosedRange<Double>] {
        func refuse(_ key: String, _ reason: String) -> APIError { APIError.invalid("\(field).\(key): \(reason)", code: "invalid-field") }
        var ranges: [QuantityType: ClosedRange<Double>] = [:]
        for (key, threshold) in thresholds.sorted(by: { $0.key < $1.key }) {
            guard let type = QuantityType(rawValue: key) else {
                throw refuse(key, "is not a quantity type (\(QuantityType.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            let canonical = type.canonicalUnit
            let lower: Double, upper: Double
            do {
                let unit = try threshold.unit.map { text throws(HealthError) in try HealthUnit(parsing: text) } ?? canonical
                lower = try HealthQuantity(threshold.lower, unit).value(in: canonical)
                upper = try HealthQuantity(threshold.upper, unit).value(in: canonical)
            } catch {
                throw refuse("\(key).unit", "'\(threshold.unit ?? "")' is not a unit of \(key) (its unit is \(canonical.symbol))")
            }
            let possible = type.possibleValues
            guard lower.isFinite, upper.isFinite, possible.contains(lower), possible.contains(upper) else {
                throw refuse(key, "the bounds must lie in \(possible.lowerBound)…\(possible.upperBound) \(canonical.symbol)")
            }
            guard lower < upper else { throw refuse(key, "lower (\(threshold.lower)) must be below upper (\(threshold.upper))") }
            ranges[type] = lower...upper
        }
        return ranges
    }

    /// `ranges` as the API shows them, keyed by type, in canonical units.
    static func view(of ranges: [QuantityType: ClosedRange<Double>]) -> [String: Threshold] {
        Dictionary(
            uniqueKeysWithValues: ranges.map { type, range in
                (type.rawValue, Threshold(lower: range.lowerBound, upper: range.upperBound, unit: type.canonicalUnit.symbol))
            })
    }

    /// The range `patient` is judged by for every standard vital sign: their own where
    /// they have one, else the standard.
    static func effective(for patient: Patient) -> [String: Threshold] {
        var effective: [QuantityType: ClosedRange<Double>] = [:]
        for type in QuantityType.allCases {
            if let range = patient.typicalRange(of: type) { effective[type] = range }
        }
        return view(of: effective)
    }
}
