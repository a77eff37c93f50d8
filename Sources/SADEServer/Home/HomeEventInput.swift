import Foundation
import SADEHome

/// Reads state events from JSON: `[{"device_id": 12, "value": 1, "battery": 80, "time": …}]`
/// with `time` as ISO 8601 text or epoch milliseconds. Errors name the field, e.g.
/// `events[3].time: is missing`.
enum HomeEventInput {
    /// The most events one batch may carry.
    static let maximumBatch = 5000

    static func events(from json: Any?, field: String = "events") throws(HomeError) -> [StateEvent] {
        guard let items = json as? [Any] else { throw .invalidValue(field: field, reason: "must be a list of events") }
        guard !items.isEmpty else { throw .invalidValue(field: field, reason: "is empty") }
        guard items.count <= maximumBatch else { throw .invalidValue(field: field, reason: "has more than \(maximumBatch) events") }
        var events: [StateEvent] = []
        events.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            let at = "\(field)[\(index)]"
            guard let object = item as? [String: Any] else { throw .invalidValue(field: at, reason: "must be an object") }
            let device = try integer(object["device_id"] ?? object["deviceId"], field: "\(at).device_id")
            guard let value = number(object["value"]), value.isFinite else {
                throw .invalidValue(field: "\(at).value", reason: object["value"] == nil ? "is missing" : "must be a number")
            }
            var battery: Int?
            if let raw = object["battery"], !(raw is NSNull) {
                let percent = try integer(raw, field: "\(at).battery")
                guard (0...100).contains(percent) else { throw .invalidValue(field: "\(at).battery", reason: "must be 0–100 (percent)") }
                battery = Int(percent)
            }
            let time = try date(object["time"], field: "\(at).time")
            events.append(StateEvent(device: device, value: value, battery: battery, time: time))
        }
        return events
    }

    static func number(_ json: Any?) -> Double? {
        guard let json, type(of: json) != Bool.self else { return nil }  // true is not 1
        if let value = json as? Double { return value }
        if let value = json as? Int { return Double(value) }
        return (json as? NSNumber)?.doubleValue
    }

    static func integer(_ json: Any?, field: String) throws(HomeError) -> Int64 {
        guard let json else { throw .invalidValue(field: field, reason: "is missing") }
        guard let value = number(json), value == value.rounded(), abs(value) < 9e15 else {
            throw .invalidValue(field: field, reason: "must be an integer")
        }
        return Int64(value)
    }

    /// ISO 8601 text (with or without fractions) or epoch milliseconds.
    static func date(_ json: Any?, field: String) throws(HomeError) -> Date {
        guard let json, !(json is NSNull) else { throw .invalidValue(field: field, reason: "is missing") }
        if let text = json as? String {
            guard let date = APIDate.parse(text) else {
                throw .invalidValue(field: field, reason: "\(text.prefix(40).debugDescription) is not an ISO 8601 date-time")
            }
            return date
        }
        guard let milliseconds = number(json), milliseconds.isFinite, abs(milliseconds) < 1e15 else {
            throw .invalidValue(field: field, reason: "must be an ISO 8601 date-time or epoch milliseconds")
        }
        return Date(timeIntervalSince1970: milliseconds / 1000)
    }
}
