import Foundation
import SADEHealth

/// Identifies a flat in its store.
public typealias FlatID = Int64
/// Identifies a room in its store.
public typealias RoomID = Int64
/// Identifies a device in its store (the thesis's integer `deviceId`).
public typealias DeviceID = Int64

/// A flat where a resident lives with sensors and actuators (the thesis's `Flat`).
public struct Flat: Hashable, Sendable, Codable, Identifiable {
    /// Unique in the store.
    public var id: FlatID
    /// What carers call it, e.g. "Flat 2, Rua Alegre 12".
    public var name: String
    /// The person who lives there: a patient of the clinical registry.
    public var resident: PatientID?
    /// The accounts (usernames) that look after the resident and get the flat's alarms.
    public var carers: [String]
    /// The flat's time zone (IANA name): time windows of the rules are local times there.
    public var timeZone: String
    /// When the resident counts as inactive.
    public var inactivity: InactivityRules
    /// The floor plan's rooms, each with its doors.
    public var rooms: [Room]
    /// Every device, each in one room.
    public var devices: [Device]

    /// A flat.
    public init(
        id: FlatID, name: String, resident: PatientID? = nil, carers: [String] = [], timeZone: String = "UTC",
        inactivity: InactivityRules = .init(), rooms: [Room] = [], devices: [Device] = []
    ) {
        self.id = id
        self.name = name
        self.resident = resident
        self.carers = carers
        self.timeZone = timeZone
        self.inactivity = inactivity
        self.rooms = rooms
        self.devices = devices
    }

    /// The device with `id`, if it is in this flat.
    public func device(_ id: DeviceID) -> Device? { devices.first { $0.id == id } }

    /// The room with `id`, if it is in this flat.
    public func room(_ id: RoomID) -> Room? { rooms.first { $0.id == id } }

    /// The device whose Home Assistant entity id is `entityID`, if any.
    public func device(entityID: String) -> Device? { devices.first { $0.entityID == entityID } }

    /// The flat's calendar, in its time zone.
    public var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: timeZone) ?? .gmt
        return calendar
    }
}

/// A point of the floor plan, in metres from the flat's corner.
public struct PlanPoint: Hashable, Sendable, Codable {
    /// Metres to the right.
    public var x: Double
    /// Metres down.
    public var y: Double

    /// A point.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// What a room is used for; the activity profile and the pages use it.
public struct RoomType: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral {
    /// The type's name, e.g. `kitchen`.
    public var rawValue: String
    /// A type.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Lets `"kitchen"` stand for a room type.
    public init(stringLiteral value: String) { rawValue = value }

    public static let kitchen: RoomType = "kitchen"
    public static let bedroom: RoomType = "bedroom"
    public static let bathroom: RoomType = "bathroom"
    public static let livingRoom: RoomType = "livingRoom"
    public static let hall: RoomType = "hall"
    public static let other: RoomType = "other"
}

/// A room of the floor plan (the thesis's `Room` with its `Coordinate`s and `Door`s).
public struct Room: Hashable, Sendable, Codable, Identifiable {
    /// Unique in the store.
    public var id: RoomID
    /// E.g. "Kitchen".
    public var name: String
    /// What it is used for.
    public var type: RoomType
    /// Its walls: the corners in order, in metres.
    public var polygon: [PlanPoint]
    /// Its doors.
    public var doors: [Door]

    /// A room.
    public init(id: RoomID, name: String, type: RoomType, polygon: [PlanPoint], doors: [Door] = []) {
        self.id = id
        self.name = name
        self.type = type
        self.polygon = polygon
        self.doors = doors
    }
}

/// A door in a room's wall, drawn for orientation.
public struct Door: Hashable, Sendable, Codable {
    /// Where the door's middle is, in metres.
    public var position: PlanPoint
    /// How wide it is, in metres.
    public var width: Double

    /// A door.
    public init(position: PlanPoint, width: Double = 0.9) {
        self.position = position
        self.width = width
    }
}
