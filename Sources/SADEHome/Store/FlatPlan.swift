import SADEHealth

/// A flat to create, with its rooms and their devices (ids are given by the store).
public struct FlatPlan: Hashable, Sendable, Codable {
    /// The flat's name.
    public var name: String
    /// The resident, a patient of the clinical registry.
    public var resident: PatientID?
    /// The carers' usernames.
    public var carers: [String]
    /// The flat's IANA time zone.
    public var timeZone: String
    /// When the resident counts as inactive.
    public var inactivity: InactivityRules
    /// The rooms, each with its devices.
    public var rooms: [RoomPlan]

    /// A plan.
    public init(
        name: String, resident: PatientID? = nil, carers: [String] = [], timeZone: String = "UTC", inactivity: InactivityRules = .init(),
        rooms: [RoomPlan]
    ) {
        self.name = name
        self.resident = resident
        self.carers = carers
        self.timeZone = timeZone
        self.inactivity = inactivity
        self.rooms = rooms
    }
}

/// A room to create, with its devices.
public struct RoomPlan: Hashable, Sendable, Codable {
    /// The room's name.
    public var name: String
    /// What it is used for.
    public var type: RoomType
    /// Its corners in order, in metres.
    public var polygon: [PlanPoint]
    /// Its doors.
    public var doors: [Door]
    /// Its devices.
    public var devices: [DevicePlan]

    /// A room plan.
    public init(name: String, type: RoomType, polygon: [PlanPoint], doors: [Door] = [], devices: [DevicePlan] = []) {
        self.name = name
        self.type = type
        self.polygon = polygon
        self.doors = doors
        self.devices = devices
    }
}

/// A device to create.
public struct DevicePlan: Hashable, Sendable, Codable {
    /// The device's name; its entity's object id is made from it unless given.
    public var name: String
    /// What it senses or does.
    public var kind: DeviceKind
    /// Where it is, in metres.
    public var position: PlanPoint
    /// Whether it runs on a battery.
    public var isBatteryPowered: Bool
    /// The object part of its entity id; made from the name when `nil`.
    public var objectID: String?

    /// A device plan.
    public init(name: String, kind: DeviceKind, position: PlanPoint, isBatteryPowered: Bool = false, objectID: String? = nil) {
        self.name = name
        self.kind = kind
        self.position = position
        self.isBatteryPowered = isBatteryPowered
        self.objectID = objectID
    }
}

/// What an update of a flat may change; `nil` keeps the value.
public struct FlatUpdate: Hashable, Sendable, Codable {
    public var name: String?
    public var resident: PatientID?
    public var carers: [String]?
    public var timeZone: String?
    public var inactivity: InactivityRules?

    /// An update.
    public init(name: String? = nil, resident: PatientID? = nil, carers: [String]? = nil, timeZone: String? = nil, inactivity: InactivityRules? = nil) {
        self.name = name
        self.resident = resident
        self.carers = carers
        self.timeZone = timeZone
        self.inactivity = inactivity
    }
}
