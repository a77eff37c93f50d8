import Foundation
import SADEHealth
import SADEHome

/// Reads a flat to create or an update from JSON, naming the field at fault:
/// `{"name", "resident", "carers", "time_zone", "inactivity": {"continuous_hours",
/// "windows": [{"start": "07:00", "end": "10:00"}]}, "rooms": [{"name", "type",
/// "polygon": [[x, y], …], "doors": [{"x", "y", "width"}], "devices": [{"name", "kind",
/// "x", "y", "battery_powered", "object_id"}]}]}`.
enum HomeFlatInput {
    static func plan(_ object: [String: Any]) throws(HomeError) -> FlatPlan {
        guard let name = object["name"] as? String else { throw .invalidValue(field: "name", reason: "is missing") }
        guard let rooms = object["rooms"] as? [Any], !rooms.isEmpty else { throw .invalidValue(field: "rooms", reason: "must list at least one room") }
        let update = try self.update(object)
        var plans: [RoomPlan] = []
        for (index, item) in rooms.enumerated() { plans.append(try room(item, field: "rooms[\(index)]")) }
        return FlatPlan(
            name: name, resident: update.resident, carers: update.carers ?? [], timeZone: update.timeZone ?? "UTC",
            inactivity: update.inactivity ?? InactivityRules(), rooms: plans)
    }

    static func update(_ object: [String: Any]) throws(HomeError) -> FlatUpdate {
        var update = FlatUpdate()
        if let raw = object["name"] {
            guard let name = raw as? String else { throw .invalidValue(field: "name", reason: "must be text") }
            update.name = name
        }
        if let raw = object["resident"], !(raw is NSNull) {
            guard let resident = raw as? String else { throw .invalidValue(field: "resident", reason: "must be a patient id") }
            let id = PatientID(resident)
            do { try id.validate(field: "resident") } catch { throw .invalidValue(field: "resident", reason: "\(error)") }
            update.resident = id
        }
        if let raw = object["carers"] {
            guard let carers = raw as? [String] else { throw .invalidValue(field: "carers", reason: "must be a list of usernames") }
            update.carers = carers
        }
        if let raw = object["time_zone"] {
            guard let zone = raw as? String, TimeZone(identifier: zone) != nil else { throw .invalidValue(field: "time_zone", reason: "must be an IANA time zone, e.g. Europe/Lisbon") }
            update.timeZone = zone
        }
        if let raw = object["inactivity"] { update.inactivity = try inactivity(raw) }
        return update
    }

    static func inactivity(_ json: Any) throws(HomeError) -> InactivityRules {
        guard let object = json as? [String: Any] else { throw .invalidValue(field: "inactivity", reason: "must be an object") }
        var rules = InactivityRules(continuousPeriod: nil)
        if let raw = object["continuous_hours"], !(raw is NSNull) {
            guard let hours = HomeEventInput.number(raw), hours > 0, hours <= 72 else {
                throw .invalidValue(field: "inactivity.continuous_hours", reason: "must be a number of hours above 0, at most 72")
            }
            rules.continuousPeriod = .seconds(hours * 3600)
        }
        for (index, item) in (object["windows"] as? [Any] ?? []).enumerated() {
            guard let window = item as? [String: Any], let start = window["start"] as? String, let end = window["end"] as? String,
                let parsed = ActivityWindow(start: start, end: end)
            else { throw .invalidValue(field: "inactivity.windows[\(index)]", reason: "must be {\"start\": \"HH:MM\", \"end\": \"HH:MM\"}, start first") }
            rules.windows.append(parsed)
        }
        return rules
    }

    static func room(_ json: Any, field: String) throws(HomeError) -> RoomPlan {
        guard let object = json as? [String: Any] else { throw .invalidValue(field: field, reason: "must be an object") }
        guard let name = object["name"] as? String else { throw .invalidValue(field: "\(field).name", reason: "is missing") }
        let type = RoomType(rawValue: object["type"] as? String ?? "other")
        guard let corners = object["polygon"] as? [Any] else { throw .invalidValue(field: "\(field).polygon", reason: "must be a list of [x, y] points in metres") }
        var polygon: [PlanPoint] = []
        for (index, corner) in corners.enumerated() {
            guard let pair = corner as? [Any], pair.count == 2, let x = HomeEventInput.number(pair[0]), let y = HomeEventInput.number(pair[1]) else {
                throw .invalidValue(field: "\(field).polygon[\(index)]", reason: "must be [x, y] in metres")
            }
            polygon.append(PlanPoint(x: x, y: y))
        }
        var doors: [Door] = []
        for (index, item) in (object["doors"] as? [Any] ?? []).enumerated() {
            guard let door = item as? [String: Any], let x = HomeEventInput.number(door["x"]), let y = HomeEventInput.number(door["y"]) else {
                throw .invalidValue(field: "\(field).doors[\(index)]", reason: "must be {\"x\", \"y\", \"width\"} in metres")
            }
            doors.append(Door(position: PlanPoint(x: x, y: y), width: HomeEventInput.number(door["width"]) ?? 0.9))
        }
        var devices: [DevicePlan] = []
        for (index, item) in (object["devices"] as? [Any] ?? []).enumerated() { devices.append(try device(item, field: "\(field).devices[\(index)]")) }
        return RoomPlan(name: name, type: type, polygon: polygon, doors: doors, devices: devices)
    }

    static func device(_ json: Any, field: String) throws(HomeError) -> DevicePlan {
        guard let object = json as? [String: Any] else { throw .invalidValue(field: field, reason: "must be an object") }
        guard let name = object["name"] as? String else { throw .invalidValue(field: "\(field).name", reason: "is missing") }
        guard let kindName = object["kind"] as? String, let kind = DeviceKind.thesisKind(named: kindName) else {
            throw .invalidValue(field: "\(field).kind", reason: "must be one of \(DeviceKind.known.map(\.rawValue).joined(separator: ", "))")
        }
        guard let x = HomeEventInput.number(object["x"]), let y = HomeEventInput.number(object["y"]) else {
            throw .invalidValue(field: "\(field).x", reason: "x and y (metres) are needed")
        }
        return DevicePlan(
            name: name, kind: kind, position: PlanPoint(x: x, y: y), isBatteryPowered: object["battery_powered"] as? Bool ?? false,
            objectID: object["object_id"] as? String)
    }
}
