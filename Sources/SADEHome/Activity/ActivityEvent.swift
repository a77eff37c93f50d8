import Foundation

/// One sensor activation the resident (or a visitor) caused, as the activity profile
/// sees it: motion, a door, an appliance used, a switch pressed, a pill taken, the toilet
/// flushed. Metering and temperature are not activity.
public struct ActivityEvent: Hashable, Sendable, Codable {
    /// When the sensor fired.
    public var time: Date
    /// The sensor (a CASAS name or a device's object id).
    public var sensor: String
    /// The room it is in, by name.
    public var room: String
    /// Whether it is the way out of the flat (the entrance door, a property-exit sensor):
    /// a quiet that follows it may be the resident being out, not lying still.
    public var isExit: Bool
    /// What the room is used for.
    public var roomType: RoomType

    /// An event.
    public init(time: Date, sensor: String, room: String, roomType: RoomType = .other, isExit: Bool = false) {
        self.time = time
        self.sensor = sensor
        self.room = room
        self.roomType = roomType
        self.isExit = isExit
    }

    /// Whether it is in a bedroom, where a lone movement may be someone turning over in bed.
    public var isBedroom: Bool { roomType == .bedroom }
}

extension ActivityEvent {
    /// Whether a device of `kind` in a room of `roomType` counts as resident activity,
    /// and whether it is an exit: a property-exit sensor, or a door contact in the hall.
    static func classify(_ kind: DeviceKind, roomType: RoomType) -> (isActivity: Bool, isExit: Bool) {
        (kind.isResidentActivity, kind == .propertyExit || (kind == .contact && roomType == .hall))
    }

    /// The activations among a flat's events: resident-activity devices turning on
    /// (value ≥ 0.5), oldest first.
    public static func activations(_ events: [StateEvent], in flat: Flat) -> [ActivityEvent] {
        let rooms = Dictionary(flat.rooms.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var devices: [DeviceID: (sensor: String, room: Room, isExit: Bool)] = [:]
        for device in flat.devices {
            guard let room = rooms[device.room] else { continue }
            let (isActivity, isExit) = classify(device.kind, roomType: room.type)
            if isActivity { devices[device.id] = (device.objectID, room, isExit) }
        }
        return events.compactMap { event in
            guard event.isOn, let device = devices[event.device] else { return nil }
            return ActivityEvent(time: event.time, sensor: device.sensor, room: device.room.name, roomType: device.room.type, isExit: device.isExit)
        }.sorted { $0.time < $1.time }
    }

    /// The activations among CASAS lines: sensors whose kind (by `map`, else by name) is
    /// resident activity, turning on; in the map's rooms (`Unknown` where it names none),
    /// whose types `roomTypes` gives by name (a door in the hall is the way out).
    public static func activations(_ lines: [CASASLine], map: CASASDeviceMap, roomTypes: [String: RoomType] = [:]) -> [ActivityEvent] {
        var sensors: [String: (room: String, type: RoomType, isExit: Bool)?] = [:]
        return lines.compactMap { line in
            guard line.value >= 0.5 else { return nil }
            if sensors[line.sensor] == nil {
                sensors[line.sensor] = map.kind(of: line.sensor).flatMap { kind in
                    let roomName = map.sensors[line.sensor]?.room ?? "Unknown"
                    let roomType = roomTypes[roomName] ?? .other
                    let (isActivity, isExit) = classify(kind, roomType: roomType)
                    return isActivity ? (roomName, roomType, isExit) : nil
                } ?? .some(nil)
            }
            guard case .some(.some(let sensor)) = sensors[line.sensor] else { return nil }
            return ActivityEvent(time: line.time, sensor: line.sensor, room: sensor.room, roomType: sensor.type, isExit: sensor.isExit)
        }.sorted { $0.time < $1.time }
    }
}

extension ActivityEvent {
    /// `events` (oldest first) without a sensor's repeats: an activation within `interval`
    /// of that sensor's last kept one is dropped. For evaluating data sets whose motion
    /// sensors report every second or two while someone moves (MavPad's) in minutes, not
    /// hours; the home agent and the synthetic figures take every activation (a 15 s
    /// window already moves the learned quiet's synthetic figures: it counts readings).
    public static func debounced(_ events: [ActivityEvent], within interval: TimeInterval) -> [ActivityEvent] {
        guard interval > 0 else { return events }
        var last: [String: Date] = [:]
        return events.filter { event in
            if let previous = last[event.sensor], event.time.timeIntervalSince(previous) < interval { return false }
            last[event.sensor] = event.time
            return true
        }
    }
}
