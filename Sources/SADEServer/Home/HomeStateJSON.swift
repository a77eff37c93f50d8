import Foundation
import SADEHome
import SADENotification

/// Home Assistant's shapes of states, events and statistics, as JSON objects.
enum HomeStateJSON {
    static let iso = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// `on`/`off`, `open`/`closed` or the number, as Home Assistant shows the state.
    static func state(of device: Device, value: Double?) -> String {
        guard let value else { return "unknown" }
        switch device.kind.domain {
        case "binary_sensor", "switch", "light": return value >= 0.5 ? "on" : "off"
        case "cover": return value > 0 ? "open" : "closed"
        default: return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        }
    }

    /// A state object: `entity_id`, `state`, `attributes`, `last_changed`, `last_updated`.
    static func state(_ device: Device, latest: StateEvent?, lastChanged: Date?, battery: Int?, flat: Flat) -> [String: Any] {
        var attributes: [String: Any] = [
            "friendly_name": device.name, "device_id": device.id, "device_kind": device.kind.rawValue,
            "room": flat.room(device.room)?.name ?? "", "flat_id": flat.id,
        ]
        if let deviceClass = device.kind.deviceClass { attributes["device_class"] = deviceClass }
        if !device.kind.unit.isEmpty, device.kind.domain == "sensor" { attributes["unit_of_measurement"] = device.kind.unit }
        if let battery { attributes["battery_level"] = battery }
        if let value = latest?.value {
            if device.kind.domain == "light" { attributes["brightness"] = Int((value / 100 * 255).rounded()) }
            if device.kind.domain == "cover" { attributes["current_position"] = Int(value.rounded()) }
        }
        let updated = latest.map { iso.format($0.time) } ?? NSNull() as Any
        return [
            "entity_id": device.entityID, "state": state(of: device, value: latest?.value), "attributes": attributes,
            "last_changed": lastChanged.map { iso.format($0) } ?? updated, "last_updated": updated,
        ]
    }

    /// A device's state from the store's view of it.
    static func state(_ state: DeviceState, flat: Flat) -> [String: Any] {
        Self.state(state.device, latest: state.latest, lastChanged: state.lastChanged, battery: state.battery, flat: flat)
    }

    /// A home message as the bus and the REST API show it.
    static func message(_ message: HomeMessage) -> [String: Any] {
        var object: [String: Any] = [
            "id": message.id, "flat_id": message.flat, "class": message.severity.rawValue, "title": message.title, "text": message.text,
            "key": message.key, "state": message.state.rawValue, "raised_at": iso.format(message.raisedAt),
        ]
        if let device = message.device { object["device_id"] = device }
        if let expires = message.expiresAt { object["expires_at"] = iso.format(expires) }
        if let who = message.confirmedBy { object["confirmed_by"] = who }
        if let when = message.confirmedAt { object["confirmed_at"] = iso.format(when) }
        return object
    }

    /// Where a message's notification of the carers stands.
    static func escalation(_ escalation: HomeEscalation) -> [String: Any] {
        var object: [String: Any] = [
            "escalating": escalation.isEscalating,
            "steps": escalation.steps.map { step in
                ["step": step.step, "at": iso.format(step.at), "recipients": step.recipients.map(\.description)] as [String: Any]
            },
        ]
        if let who = escalation.acknowledgedBy { object["acknowledged_by"] = who }
        if let when = escalation.acknowledgedAt { object["acknowledged_at"] = iso.format(when) }
        return object
    }

    /// A flat's recent days: hourly activity, the thesis's score and band, the routine
    /// profile's verdict; and the last activity alarm.
    static func activity(_ activity: FlatActivity) -> [String: Any] {
        var object: [String: Any] = [
            "days": activity.days.enumerated().map { index, day in
                var row: [String: Any] = [
                    "complete": index < activity.days.count - 1,
                    "day": day.day, "hourly": day.hourly, "active_hours": day.activeHours, "score": finite(day.score),
                    "log_likelihood": finite(day.logLikelihood), "thesis": day.thesis, "routine": day.routine, "quiet_alarms": day.quietAlarms,
                ]
                if let band = day.band, band.allSatisfy(\.isFinite) { row["band"] = band }
                if let reason = day.routineReason { row["routine_reason"] = reason }
                if let reason = day.firstQuietAlarm { row["quiet_alarm"] = reason }
                return row
            }
        ]
        if let alarm = activity.lastAlarm { object["last_alarm"] = message(alarm) }
        return object
    }

    /// A number JSON can carry: infinities and NaN (a day the model cannot explain) become the lowest finite value.
    private static func finite(_ value: Double) -> Double { value.isFinite ? value : -Double.greatestFiniteMagnitude }

    /// The `event` object of a bus event, Home Assistant's `{event_type, data, origin, time_fired}`.
    static func event(_ event: HomeEvent, flats: [FlatID: Flat], at now: Date) -> [String: Any] {
        var data: [String: Any] = ["flat_id": event.flat]
        switch event {
        case .stateChanged(_, let device, let old, let new):
            guard let flat = flats[event.flat] else { break }
            let changed = old.map { $0.value == new.value ? $0.time : new.time } ?? new.time
            data["entity_id"] = device.entityID
            data["old_state"] = old.map { state(device, latest: $0, lastChanged: $0.time, battery: $0.battery, flat: flat) } ?? NSNull()
            data["new_state"] = state(device, latest: new, lastChanged: changed, battery: new.battery, flat: flat)
        case .message(let message):
            data["message"] = Self.message(message)
        case .occupancyChanged(let occupancy):
            let flat = flats[event.flat]
            data["room_id"] = occupancy.room
            data["room"] = flat?.room(occupancy.room)?.name ?? ""
            data["previous_room_id"] = occupancy.previousRoom ?? NSNull() as Any
            data["previous_room"] = occupancy.previousRoom.flatMap { flat?.room($0)?.name } ?? NSNull() as Any
            data["since"] = iso.format(occupancy.since)
        case .serviceCalled(_, let device, let value, let context):
            data["domain"] = device.kind.domain
            data["entity_id"] = device.entityID
            data["device_id"] = device.id
            data["value"] = value
            data["context_id"] = context.uuidString
        }
        return ["event_type": event.type, "data": data, "origin": "LOCAL", "time_fired": iso.format(now)]
    }

    /// A statistics row: `start`/`end` in epoch milliseconds, as Home Assistant sends them.
    static func statistic(_ row: DeviceStatistic) -> [String: Any] {
        [
            "start": Int64(row.start.timeIntervalSince1970 * 1000), "end": Int64(row.end.timeIntervalSince1970 * 1000),
            "mean": row.mean, "min": row.min, "max": row.max, "sum": row.sum, "change": row.change,
        ]
    }

    /// The flat with its floor plan, for the REST API and the pages.
    static func flat(_ flat: Flat) -> [String: Any] {
        var inactivity: [String: Any] = [
            "windows": flat.inactivity.windows.map { ["start": ActivityWindowText.start($0), "end": ActivityWindowText.end($0)] }
        ]
        if let period = flat.inactivity.continuousPeriod { inactivity["continuous_hours"] = period.seconds / 3600 }
        var object: [String: Any] = [
            "id": flat.id, "name": flat.name, "carers": flat.carers, "time_zone": flat.timeZone, "inactivity": inactivity,
            "rooms": flat.rooms.map { room in
                [
                    "id": room.id, "name": room.name, "type": room.type.rawValue,
                    "polygon": room.polygon.map { [$0.x, $0.y] },
                    "doors": room.doors.map { ["x": $0.position.x, "y": $0.position.y, "width": $0.width] },
                ] as [String: Any]
            },
            "devices": flat.devices.map { device in
                [
                    "id": device.id, "room_id": device.room, "name": device.name, "kind": device.kind.rawValue,
                    "category": device.kind.category.rawValue, "unit": device.kind.unit, "entity_id": device.entityID,
                    "actuator": device.kind.isActuator, "battery_powered": device.isBatteryPowered,
                    "resident_activity": device.kind.isResidentActivity,
                    "x": device.position.x, "y": device.position.y,
                ] as [String: Any]
            },
        ]
        if let resident = flat.resident { object["resident"] = resident.rawValue }  // absent fields are left out, never null
        return object
    }
}

/// A window's ends as `HH:MM`.
enum ActivityWindowText {
    static func start(_ window: ActivityWindow) -> String { String(window.description.prefix(5)) }
    static func end(_ window: ActivityWindow) -> String { String(window.description.suffix(5)) }
}
