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
    /// What the reading tells of the resident.
    public var signal: Signal
    /// The seat or bed (by sensor) the resident is on after this reading, if any: pressed
    /// and not yet released. Worked out from the readings before it only (see
    /// ``markingHolds(_:)``), so that a recording cut short tells what a live one would.
    public var holding: String?
    /// Whether it is the way out opened by the resident coming home (see ``markingHolds(_:)``).
    public var isArrival: Bool = false

    /// What a reading tells of the resident.
    public enum Signal: String, Hashable, Sendable, Codable {
        /// Motion seen: the resident, or a glitch, a pet, the sun through a window; it
        /// takes corroborating.
        case motion
        /// Something done: a door opened, an appliance used, the toilet flushed, a switch pressed.
        case action
        /// A seat or bed pressed: someone sat or lay down, and is there until it is released.
        case press
        /// A seat or bed released: someone got up.
        case release
    }

    /// An event.
    public init(
        time: Date, sensor: String, room: String, roomType: RoomType = .other, isExit: Bool = false, signal: Signal = .motion,
        holding: String? = nil
    ) {
        self.time = time
        self.sensor = sensor
        self.room = room
        self.roomType = roomType
        self.isExit = isExit
        self.signal = signal
        self.holding = holding
    }

    /// Whether it is the way out, opened to leave or on coming home.
    public var isWayOut: Bool { isExit || isArrival }

    /// Whether it is in a bedroom, where a lone movement may be someone turning over in bed.
    public var isBedroom: Bool { roomType == .bedroom }
}

extension ActivityEvent {
    /// Whether a device of `kind` in a room of `roomType` counts as resident activity,
    /// and whether it is an exit: a property-exit sensor, or a door contact in the hall.
    static func classify(_ kind: DeviceKind, roomType: RoomType) -> (isActivity: Bool, isExit: Bool) {
        (kind.isResidentActivity, kind == .propertyExit || (kind == .contact && roomType == .hall))
    }

    /// What a reading of `value` from a device of `kind` tells, if it is activity: a
    /// sensor turning on, or a seat or bed released (getting up is activity too).
    static func signal(_ kind: DeviceKind, value: Double) -> Signal? {
        switch kind {
        case .occupancy: value >= 0.5 ? .press : .release
        case .motion: value >= 0.5 ? .motion : nil
        default: value >= 0.5 ? .action : nil
        }
    }

    /// The activations among a flat's events: resident-activity devices turning on
    /// (value ≥ 0.5), and seats and beds released, oldest first.
    public static func activations(_ events: [StateEvent], in flat: Flat) -> [ActivityEvent] {
        let rooms = Dictionary(flat.rooms.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var devices: [DeviceID: (sensor: String, kind: DeviceKind, room: Room, isExit: Bool)] = [:]
        for device in flat.devices {
            guard let room = rooms[device.room] else { continue }
            let (isActivity, isExit) = classify(device.kind, roomType: room.type)
            if isActivity { devices[device.id] = (device.objectID, device.kind, room, isExit) }
        }
        return markingHolds(
            events.compactMap { event in
                guard let device = devices[event.device], let signal = signal(device.kind, value: event.value) else { return nil }
                return ActivityEvent(
                    time: event.time, sensor: device.sensor, room: device.room.name, roomType: device.room.type, isExit: device.isExit, signal: signal)
            }.sorted { $0.time < $1.time })
    }

    /// The activations among CASAS lines: sensors whose kind (by `map`, else by name) is
    /// resident activity, turning on (and seats and beds released); in the map's rooms
    /// (`Unknown` where it names none), whose types `roomTypes` gives by name (a door in
    /// the hall is the way out).
    public static func activations(_ lines: [CASASLine], map: CASASDeviceMap, roomTypes: [String: RoomType] = [:]) -> [ActivityEvent] {
        var sensors: [String: (kind: DeviceKind, room: String, type: RoomType, isExit: Bool)?] = [:]
        return markingHolds(
            lines.compactMap { line in
                if sensors[line.sensor] == nil {
                    sensors[line.sensor] = map.kind(of: line.sensor).flatMap { kind in
                        let roomName = map.sensors[line.sensor]?.room ?? "Unknown"
                        let roomType = roomTypes[roomName] ?? .other
                        let (isActivity, isExit) = classify(kind, roomType: roomType)
                        return isActivity ? (kind, roomName, roomType, isExit) : nil
                    } ?? .some(nil)
                }
                guard case .some(.some(let sensor)) = sensors[line.sensor], let signal = signal(sensor.kind, value: line.value) else { return nil }
                return ActivityEvent(time: line.time, sensor: line.sensor, room: sensor.room, roomType: sensor.type, isExit: sensor.isExit, signal: signal)
            }.sorted { $0.time < $1.time })
    }

    /// A quiet after the way out opened longer than this is time out.
    static let outing: TimeInterval = 10 * 60

    /// `events` (oldest first) with ``holding`` set from the readings before each: a seat
    /// or bed pressed is held until it is released, or until something is done in another
    /// room, or ``elsewhere`` motions came from other rooms within ``elsewhereWithin`` (the
    /// resident is elsewhere: the mat stuck, or a bag left on the seat). A stray motion or
    /// two elsewhere does not end it (a sensor's glitch would end a night's sleep), and
    /// activity in the held room starts the count again.
    ///
    /// A seat or bed reported pressed while it is (or released while it is not) is no new
    /// press or release: a gateway re-sending its state is not the resident getting up.
    /// And the way out opened again more than ``outing`` after it was last opened, with
    /// fewer than three activations in between (a hall's motion as the resident went, a
    /// glitch), is the resident coming home (``isArrival``), not leaving: the quiet after
    /// it is one indoors.
    public static func markingHolds(_ events: [ActivityEvent]) -> [ActivityEvent] {
        var held: (sensor: String, room: String, elsewhere: [Date])?
        var pressed: [String: Bool] = [:]
        var left: (time: Date, since: Int)?  // the last leaving, and how many activations came after it
        return events.compactMap { event in
            var event = event
            switch event.signal {
            case .press, .release:
                let isPressed = event.signal == .press
                guard pressed[event.sensor] != isPressed else { return nil }
                pressed[event.sensor] = isPressed
            case .motion, .action: break
            }
            if event.isExit {
                if let leaving = left, leaving.since < 3, event.time.timeIntervalSince(leaving.time) > Self.outing {
                    event.isExit = false
                    event.isArrival = true
                    left = nil
                } else {
                    left = (event.time, 0)
                }
            } else {
                left?.since += 1
            }
            switch event.signal {
            case .press: held = (event.sensor, event.room, [])
            case .release: if held?.sensor == event.sensor { held = nil }
            case .action: if let current = held, current.room != event.room { held = nil }
            case .motion:
                if let current = held {
                    if current.room == event.room {
                        held?.elsewhere = []
                    } else {
                        let recent = current.elsewhere.filter { event.time.timeIntervalSince($0) <= Self.elsewhereWithin } + [event.time]
                        held = recent.count >= Self.elsewhere ? nil : (current.sensor, current.room, recent)
                    }
                }
            }
            event.holding = held?.sensor
            return event
        }
    }

    /// How many motions in other rooms, within ``elsewhereWithin``, end a seat's or bed's
    /// hold (see ``markingHolds(_:)``); and how many activations in other rooms make a
    /// mat read on for an hour stuck (``DeviceFaults``).
    public static let elsewhere = 3
    /// See ``elsewhere``.
    public static let elsewhereWithin: TimeInterval = 10 * 60
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
            let key = "\(event.sensor) \(event.signal.rawValue)"  // a seat's press and release are both kept
            if let previous = last[key], event.time.timeIntervalSince(previous) < interval { return false }
            last[key] = event.time
            return true
        }
    }
}
