import Foundation
import SADEHealth

/// One observation as a device or app posts it:
/// `{"type": "heartRate", "value": 72, "unit": "count/min", "start": "…", "end": "…", "device": "…"}`.
struct ObservationInput: Sendable {
    let type: String
    let value: Double
    let unit: String?
    let start: Date
    let end: Date?
    let device: String?

    /// How far ahead of the server's clock a device's clock may run.
    static let allowedClockSkew: TimeInterval = 300

    /// The sample this observation is for `patient`, or a 400 naming the field
    /// (prefixed with `field`, e.g. `[3]`).
    func sample(for patient: PatientID, source: String, field: String, now: Date) throws -> HealthSample {
        func invalid(_ name: String, _ reason: String) -> APIError {
            APIError.invalid("\(field)\(field.isEmpty ? "" : ".")\(name): \(reason)", code: "invalid-field")
        }
        let healthType: HealthType
        do { healthType = try HealthType(identifier: type) } catch { throw invalid("type", "unknown type '\(type)'") }
        guard start <= now.addingTimeInterval(Self.allowedClockSkew) else {
            throw invalid("start", "is in the future (the server's time is \(now.formatted(.iso8601)))")
        }
        if let end, end < start { throw invalid("end", "is before start") }
        if let end, end > now.addingTimeInterval(Self.allowedClockSkew) {
            throw invalid("end", "is in the future (the server's time is \(now.formatted(.iso8601)))")
        }
        guard value.isFinite else { throw invalid("value", "must be a finite number") }
        if let device, device.count > 200 { throw invalid("device", "must be at most 200 characters") }
        let sample: HealthSample
        switch healthType {
        case .quantity(let quantityType):
            let healthUnit: HealthUnit
            do { healthUnit = try unit.map { symbol throws(HealthError) in try HealthUnit(parsing: symbol) } ?? quantityType.canonicalUnit } catch {
                throw invalid("unit", "unknown unit '\(unit ?? "")'")
            }
            sample = .quantity(quantityType, value, healthUnit, patient: patient, at: start, end: end, device: device, source: source)
        case .category(let categoryType):
            guard value == value.rounded(), abs(value) < 1e6 else { throw invalid("value", "must be a whole number for \(type)") }
            sample = .category(categoryType, Int(value), patient: patient, at: start, end: end, device: device, source: source)
        default:
            throw invalid("type", "'\(type)' cannot be posted as an observation; post its parts")
        }
        do { try sample.validate() } catch {
            if case .invalidValue(let name, let reason) = error { throw invalid(name, reason) }
            throw invalid("value", error.description)
        }
        return sample
    }
}
