/// A sensor or actuator in a room (the thesis's `Device` with its `DeviceType`).
public struct Device: Hashable, Sendable, Codable, Identifiable {
    /// Unique in the store: the thesis's integer `deviceId`.
    public var id: DeviceID
    /// The flat it is in.
    public var flat: FlatID
    /// The room it is in.
    public var room: RoomID
    /// E.g. "Kitchen motion".
    public var name: String
    /// What it senses or does.
    public var kind: DeviceKind
    /// Where it is on the floor plan, in metres.
    public var position: PlanPoint
    /// Whether it runs on a battery (and so reports its charge).
    public var isBatteryPowered: Bool
    /// The object part of its Home Assistant entity id, unique in the flat
    /// (`kitchen_motion` in `binary_sensor.kitchen_motion`).
    public var objectID: String

    /// A device.
    public init(
        id: DeviceID, flat: FlatID, room: RoomID, name: String, kind: DeviceKind, position: PlanPoint,
        isBatteryPowered: Bool, objectID: String? = nil
    ) {
        self.id = id
        self.flat = flat
        self.room = room
        self.name = name
        self.kind = kind
        self.position = position
        self.isBatteryPowered = isBatteryPowered
        self.objectID = objectID ?? Device.objectID(for: name)
    }

    /// Its Home Assistant entity id, `domain.object_id`.
    public var entityID: String { "\(kind.domain).\(objectID)" }

    /// Whether it senses (detection or metering) rather than acts.
    public var isSensor: Bool { !kind.isActuator }

    /// `name` in Home Assistant's object-id form: lowercase letters, digits and `_`.
    public static func objectID(for name: String) -> String {
        var result = ""
        for scalar in name.lowercased().unicodeScalars {
            if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
                result.unicodeScalars.append(scalar)
            } else if !result.isEmpty, result.last != "_" {
                result.append("_")
            }
        }
        while result.last == "_" { result.removeLast() }
        return result.isEmpty ? "device" : result
    }
}
