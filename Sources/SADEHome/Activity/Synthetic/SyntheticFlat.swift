import Foundation

/// The flat the synthetic resident lives in: hall, kitchen, living room, bedroom and
/// bathroom, with CASAS-named sensors — motion `M001`–`M006`, doors `D001` (entrance) and
/// `D002` (fridge), temperatures `T001`–`T003`.
public enum SyntheticFlat {
    /// The motion sensors of each room.
    static let motion: [String: [String]] = [
        "Hall": ["M001"], "Kitchen": ["M002"], "Living room": ["M003", "M004"], "Bedroom": ["M005"], "Bathroom": ["M006"],
    ]
    /// The entrance door (in the hall: the way out).
    static let entrance = "D001"
    /// The fridge door.
    static let fridge = "D002"
    /// The temperature sensors and their rooms.
    static let temperatures = [("T001", "Kitchen"), ("T002", "Living room"), ("T003", "Bedroom")]

    /// The rooms by name, with their types.
    public static let roomTypes: [String: RoomType] = [
        "Hall": .hall, "Kitchen": .kitchen, "Living room": .livingRoom, "Bedroom": .bedroom, "Bathroom": .bathroom,
    ]

    /// The device map that places every sensor in its room.
    public static var map: CASASDeviceMap {
        var sensors: [String: CASASDeviceMap.Sensor] = [:]
        for (room, names) in motion { for name in names { sensors[name] = CASASDeviceMap.Sensor(room: room) } }
        sensors[entrance] = CASASDeviceMap.Sensor(room: "Hall")
        sensors[fridge] = CASASDeviceMap.Sensor(room: "Kitchen")
        for (name, room) in temperatures { sensors[name] = CASASDeviceMap.Sensor(room: room) }
        return CASASDeviceMap(sensors: sensors)
    }

    /// The flat's plan, without devices (an import adds them from the map).
    public static func plan(name: String = "Synthetic flat", timeZone: String = "UTC") -> FlatPlan {
        func rectangle(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> [PlanPoint] {
            [PlanPoint(x: x, y: y), PlanPoint(x: x + width, y: y), PlanPoint(x: x + width, y: y + height), PlanPoint(x: x, y: y + height)]
        }
        let rooms = [
            RoomPlan(name: "Hall", type: .hall, polygon: rectangle(0, 0, 3, 3), doors: [Door(position: PlanPoint(x: 0, y: 1.5))]),
            RoomPlan(name: "Kitchen", type: .kitchen, polygon: rectangle(3, 0, 3, 3), doors: [Door(position: PlanPoint(x: 3, y: 1.5))]),
            RoomPlan(name: "Living room", type: .livingRoom, polygon: rectangle(6, 0, 3, 4), doors: [Door(position: PlanPoint(x: 6, y: 2))]),
            RoomPlan(name: "Bedroom", type: .bedroom, polygon: rectangle(0, 3, 5, 4), doors: [Door(position: PlanPoint(x: 1.5, y: 3))]),
            RoomPlan(name: "Bathroom", type: .bathroom, polygon: rectangle(5, 4, 4, 3), doors: [Door(position: PlanPoint(x: 5, y: 5.5))]),
        ]
        return FlatPlan(name: name, resident: nil, carers: [], timeZone: timeZone, rooms: rooms)
    }
}
