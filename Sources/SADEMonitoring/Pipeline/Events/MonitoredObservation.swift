import Foundation
import SADEHealth

/// One sample as the API and the live events show it (the shared observation JSON):
/// `{"type": "heartRate", "value": 72, "unit": "count/min", "start": …, "end": …,
/// "device": "monitor-3"}`. Category samples (consciousness, supplemental oxygen) have
/// no unit; a blood-pressure correlation shows as its systolic and diastolic members.
public struct MonitoredObservation: Hashable, Sendable, Codable {
    /// The sample's id.
    public var id: UUID
    /// The type's identifier, e.g. `heartRate`, `consciousnessLevel`.
    public var type: String
    /// The value in ``unit``, or the category value.
    public var value: Double
    /// The unit symbol, e.g. `count/min`; `nil` for categories.
    public var unit: String?
    /// When the observation started.
    public var start: Date
    /// When it ended, if it lasted.
    public var end: Date?
    /// The device that measured it.
    public var device: String?

    /// Creates an observation.
    public init(id: UUID, type: String, value: Double, unit: String?, start: Date, end: Date? = nil, device: String? = nil) {
        self.id = id
        self.type = type
        self.value = value
        self.unit = unit
        self.start = start
        self.end = end
        self.device = device
    }

    /// The observations a sample shows as: itself, or a correlation's members; an ECG
    /// shows as none.
    public static func of(_ sample: HealthSample) -> [MonitoredObservation] {
        if case .correlation(let members) = sample.value { return members.flatMap(of) }
        let end = sample.end == sample.start ? nil : sample.end
        switch sample.value {
        case .quantity(let quantity):
            return [MonitoredObservation(
                id: sample.id, type: sample.type.identifier, value: quantity.value, unit: quantity.unit.symbol,
                start: sample.start, end: end, device: sample.device)]
        case .category(let raw):
            return [MonitoredObservation(
                id: sample.id, type: sample.type.identifier, value: Double(raw), unit: nil, start: sample.start, end: end, device: sample.device)]
        case .correlation, .electrocardiogram:
            return []
        }
    }
}
