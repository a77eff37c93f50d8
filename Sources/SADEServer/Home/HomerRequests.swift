import Foundation
import SADEHome

/// The AAL thesis's seven event-bus requests (§7.2), by their names:
/// `{"type": "homer/request", "request": "REQUEST_…", "value", "deviceId", "startDate", "endDate"}`
/// with dates in epoch milliseconds. Without dates a request covers the last 24 hours.
extension HomeBusSession {
    func request(_ command: [String: Any]) async throws -> Any {
        guard let name = command["request"] as? String else { throw HomeBusError.invalidFormat("homer/request needs request: REQUEST_…") }
        // A relative sees the floor plan (where the resident is now and the devices' states) and the messages: no histories.
        if caller.role == .relative, !["REQUEST_LATEST_MOTION", "REQUEST_CURRENT_ACTIVITY_CONDITION"].contains(name) {
            throw HomeBusError.unauthorized("a relative sees the flat's floor plan and messages, not its histories")
        }
        switch name {
        case "REQUEST_LATEST_EVENT": return try await latestEvents(command)
        case "REQUEST_MESSAGES_FOR_SENSOR": return try await sensorMessages(command)
        case "REQUEST_SENSOR_DATA": return try await sensorData(command)
        case "REQUEST_ENERGY_DATA": return try await energyData(command)
        case "REQUEST_LATEST_MOTION": return try await latestMotion(command)
        case "REQUEST_ACTUATOR_REQUEST_EVENT": return try await actuatorState(command)
        case "REQUEST_CURRENT_ACTIVITY_CONDITION": return try await activityCondition(command)
        default: throw HomeBusError(code: "unknown_command", message: "unknown request \(name.prefix(60).debugDescription)")
        }
    }

    /// The latest recorded event of every device (or of `deviceId`): to initialise a view.
    private func latestEvents(_ command: [String: Any]) async throws -> [[String: Any]] {
        let wanted = try command["deviceId"].map { try HomeEventInput.integer($0, field: "deviceId") }
        var rows: [[String: Any]] = []
        for flat in try await scope(command) {
            for state in try await home.store.states(flat: flat.id) where wanted == nil || state.device.id == wanted {
                guard let latest = state.latest else { continue }
                rows.append(Self.row(latest, flat: flat.id))
            }
        }
        if let wanted, rows.isEmpty, try await requestedDevice(["deviceId": wanted], command) == nil { throw HomeBusError.notFound("no device \(wanted)") }
        return rows
    }

    /// Every value `deviceId` recorded between `startDate` and `endDate`.
    private func sensorMessages(_ command: [String: Any]) async throws -> [[String: Any]] {
        guard let (flat, device) = try await requestedDevice(command, command) else { throw HomeBusError.invalidFormat("deviceId is missing") }
        let (start, end) = try requestPeriod(command)
        return try await home.store.history(device: device.id, from: start, to: end, limit: 100_000).map { Self.row($0, flat: flat.id) }
    }

    /// The same values as a chart series: `[[ms, value], …]` with the device's unit.
    private func sensorData(_ command: [String: Any]) async throws -> [String: Any] {
        guard let (_, device) = try await requestedDevice(command, command) else { throw HomeBusError.invalidFormat("deviceId is missing") }
        let (start, end) = try requestPeriod(command)
        let events = try await home.store.history(device: device.id, from: start, to: end, limit: 100_000)
        return [
            "deviceId": device.id, "name": device.name, "kind": device.kind.rawValue, "unit": device.kind.unit,
            "chart": device.kind.category == .detection ? "events" : "line",
            "series": events.map { [Self.milliseconds($0.time), $0.value] },
        ]
    }

    /// Consumers against generators per bucket (`value`: 0 hour, 1 day, 2 week, 3 month, 4 year), in kWh.
    private func energyData(_ command: [String: Any]) async throws -> [String: Any] {
        let flat = try await scope(command, single: true)[0]
        let (start, end) = try requestPeriod(command)
        let index = try command["value"].map { try HomeEventInput.integer($0, field: "value") } ?? 0
        guard (0..<Int64(StatisticsPeriod.allCases.count)).contains(index) else { throw HomeBusError.invalidFormat("value must be 0–4 (hour … year)") }
        let period = StatisticsPeriod.allCases[Int(index)]
        let balance = try await home.store.energyBalance(flat: flat.id, from: start, to: end, period: period)
        return [
            "period": period.rawValue, "unit": "kWh",
            "consumers": balance.map { [Self.milliseconds($0.start), $0.consumed / 3.6e6] },
            "generators": balance.map { [Self.milliseconds($0.start), $0.generated / 3.6e6] },
        ]
    }

    /// Motion, usage and other resident-activated events per room, and where the resident is.
    private func latestMotion(_ command: [String: Any]) async throws -> [String: Any] {
        let flat = try await scope(command, single: true)[0]
        let (start, end) = try requestPeriod(command)
        let events = try await home.store.activity(flat: flat.id, from: start, to: end).filter(\.isOn)
        let rooms = flat.rooms.map { room -> [String: Any] in
            let here = events.filter { flat.device($0.device)?.room == room.id }
            return ["roomId": room.id, "name": room.name, "count": here.count, "lastMotion": here.last.map { Self.milliseconds($0.time) } ?? NSNull() as Any]
        }
        let occupancy = try await home.store.occupancy(flat: flat.id)
        return [
            "rooms": rooms, "events": events.map { Self.row($0, flat: flat.id) },
            "occupancy": occupancy.map { ["roomId": $0.room, "previousRoomId": $0.previousRoom ?? NSNull() as Any, "since": Self.milliseconds($0.since)] }
                ?? NSNull() as Any,
        ]
    }

    /// An actuator's state now, to initialise its control.
    private func actuatorState(_ command: [String: Any]) async throws -> [String: Any] {
        guard let (flat, device) = try await requestedDevice(command, command) else { throw HomeBusError.invalidFormat("deviceId is missing") }
        guard device.kind.isActuator else { throw HomeBusError.invalidFormat("device \(device.id) is a sensor, not an actuator") }
        let state = try await home.store.states(flat: flat.id).first { $0.device.id == device.id }
        return [
            "deviceId": device.id, "entity_id": device.entityID, "kind": device.kind.rawValue,
            "value": state?.latest?.value ?? NSNull() as Any, "state": HomeStateJSON.state(of: device, value: state?.latest?.value),
            "time": state?.latest.map { Self.milliseconds($0.time) } ?? NSNull() as Any,
        ]
    }

    /// Whether the resident's activity conforms: the inactivity rules against the last
    /// activity (the learned quiet among the alarms), and the open alarms.
    private func activityCondition(_ command: [String: Any]) async throws -> [String: Any] {
        let flat = try await scope(command, single: true)[0]
        let condition = try await home.activityCondition(flat: flat.id)
        return [
            "condition": condition.isInactive ? "inactive" : "normal",
            "lastActivity": condition.lastActivity.map(Self.milliseconds) ?? NSNull() as Any,
            "quietSeconds": condition.quiet ?? NSNull() as Any,
            "continuousLimitSeconds": condition.continuousLimit ?? NSNull() as Any,
            "openAlarms": condition.openAlarms,
        ]
    }

    // MARK: Helpers

    /// The device named by `deviceId` in `source`, if it names one (in the connection's flats).
    private func requestedDevice(_ source: [String: Any], _ command: [String: Any]) async throws -> (Flat, Device)? {
        guard let raw = source["deviceId"] else { return nil }
        let id = try HomeEventInput.integer(raw, field: "deviceId")
        for flat in try await scope(command) { if let device = flat.device(id) { return (flat, device) } }
        throw HomeBusError.notFound("no device \(id)")
    }

    private func requestPeriod(_ command: [String: Any]) throws -> (Date, Date) {
        let end = try command["endDate"].map { try HomeEventInput.date($0, field: "endDate") } ?? home.clock.now
        let start = try command["startDate"].map { try HomeEventInput.date($0, field: "startDate") } ?? end.addingTimeInterval(-86_400)
        guard start < end else { throw HomeBusError.invalidFormat("startDate must be before endDate") }
        return (start, end)
    }

    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    static func row(_ event: StateEvent, flat: FlatID) -> [String: Any] {
        ["deviceId": event.device, "value": event.value, "battery": event.battery ?? NSNull() as Any, "time": milliseconds(event.time), "flatId": flat]
    }
}
