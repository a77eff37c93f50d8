import Foundation

/// What the sensors of a CASAS file are, beyond the defaults (`M…` motion, `D…` door
/// contact, `T…` temperature), and the room each is in:
/// `{"sensors": {"LS001": {"kind": "brightness", "room": "Kitchen"}, "M003": {"room": "Bedroom"}}}`.
public struct CASASDeviceMap: Codable, Sendable, Hashable {
    /// One sensor's kind (a thesis kind's name) and room (by name).
    public struct Sensor: Codable, Sendable, Hashable {
        /// A thesis kind's name (`brightness`); by the name's prefix when absent.
        public var kind: String?
        /// The room's name in the flat; the flat's first room when absent.
        public var room: String?

        /// A sensor's entry.
        public init(kind: String? = nil, room: String? = nil) {
            self.kind = kind
            self.room = room
        }
    }

    /// The sensors the map names.
    public var sensors: [String: Sensor]

    /// A map.
    public init(sensors: [String: Sensor] = [:]) { self.sensors = sensors }

    /// The kind of `sensor`: the map's, else by its prefix.
    public func kind(of sensor: String) -> DeviceKind? {
        if let name = sensors[sensor]?.kind { return DeviceKind.thesisKind(named: name) }
        switch sensor.first?.uppercased() {
        case "M": return .motion
        case "D": return .contact
        case "T": return .temperature
        default: return nil
        }
    }
}

/// What an import did.
public struct CASASImportSummary: Sendable, Hashable {
    /// Event lines read.
    public var events: Int
    /// Devices added to the flat for sensors it did not have.
    public var devicesAdded: [String]
    /// The activities annotated in the file: label → episodes (begin … end).
    public var activities: [String: [DateInterval]]
    /// The first and last event's times.
    public var period: DateInterval
}

/// Imports a CASAS file into a flat: every line is read and every sensor resolved before
/// anything is written, so a bad line imports nothing; then the flat gets a device (object
/// id: the sensor's name in lower case) for each sensor it lacks, and the events are
/// recorded in one transaction.
public struct CASASImport: Sendable {
    /// The store to import into.
    public let store: any HomeStore
    /// The sensors' kinds and rooms.
    public let map: CASASDeviceMap

    /// An importer.
    public init(store: any HomeStore, map: CASASDeviceMap = CASASDeviceMap()) {
        self.store = store
        self.map = map
    }

    /// Imports `text` into flat `id`.
    public func run(_ text: String, flat id: FlatID) async throws -> CASASImportSummary {
        let flat = try await store.flat(id)
        try checkMap(flat)
        return try await run(lines: try CASASReader.parse(text, timeZone: TimeZone(identifier: flat.timeZone) ?? .gmt), flat: id)
    }

    /// Imports `lines` (read in the flat's time zone) into flat `id`.
    public func run(lines: [CASASLine], flat id: FlatID) async throws -> CASASImportSummary {
        var flat = try await store.flat(id)
        try checkMap(flat)
        var plans: [String: (DevicePlan, RoomID)] = [:]
        let existing = Set(flat.devices.map(\.objectID))
        for line in lines where plans[line.sensor] == nil && !existing.contains(line.sensor.lowercased()) {
            guard let kind = map.kind(of: line.sensor) else { throw CASASError.unknownSensor(line: line.line, sensor: line.sensor) }
            let roomName = map.sensors[line.sensor]?.room
            guard let room = flat.rooms.first(where: { $0.name == roomName }) ?? flat.rooms.first else {
                throw HomeError.invalidValue(field: "flat", reason: "flat \(id) has no room to put sensor \(line.sensor) in")
            }
            let position = room.polygon.first ?? PlanPoint(x: 0, y: 0)
            plans[line.sensor] = (DevicePlan(name: line.sensor, kind: kind, position: position, isBatteryPowered: true, objectID: line.sensor.lowercased()), room.id)
        }
        for (_, (plan, room)) in plans.sorted(by: { $0.key < $1.key }) { _ = try await store.addDevice(plan, room: room, flat: id) }
        flat = try await store.flat(id)
        let devices = Dictionary(flat.devices.map { ($0.objectID, $0.id) }, uniquingKeysWith: { first, _ in first })
        var ids: [String: DeviceID] = [:]
        let events = lines.compactMap { line -> StateEvent? in
            if ids[line.sensor] == nil { ids[line.sensor] = devices[line.sensor.lowercased()] }
            return ids[line.sensor].map { StateEvent(device: $0, value: line.value, time: line.time) }
        }
        try await store.record(events)
        var period: DateInterval?
        if let first = lines.min(by: { $0.time < $1.time }), let last = lines.max(by: { $0.time < $1.time }) { period = DateInterval(start: first.time, end: last.time) }
        return CASASImportSummary(
            events: events.count, devicesAdded: plans.keys.sorted(), activities: Self.activities(lines),
            period: period ?? DateInterval(start: Date(), duration: 0))
    }

    /// Checks that the map names known kinds and rooms the flat has: a typo is named, not guessed around.
    private func checkMap(_ flat: Flat) throws {
        try Self.check(map, rooms: flat.rooms.map(\.name), flat: "flat \(flat.id)")
    }

    /// Checks that `map` names known kinds and only rooms among `rooms` (of `flat`, as
    /// messages name it): before a flat is made for an import, so that a bad map leaves none.
    public static func check(_ map: CASASDeviceMap, rooms: [String], flat: String) throws(HomeError) {
        for (sensor, entry) in map.sensors.sorted(by: { $0.key < $1.key }) {
            if let kind = entry.kind, DeviceKind.thesisKind(named: kind) == nil {
                throw .invalidValue(field: "map.sensors.\(sensor).kind", reason: "\(kind.debugDescription) is not a device kind")
            }
            if let room = entry.room, !rooms.contains(room) {
                throw .invalidValue(field: "map.sensors.\(sensor).room", reason: "\(flat) has no room \(room.debugDescription) (it has \(rooms.joined(separator: ", ")))")
            }
        }
    }

    /// The annotated episodes: each `begin` closed by the next `end` of the same label.
    public static func activities(_ lines: [CASASLine]) -> [String: [DateInterval]] {
        var open: [String: Date] = [:], episodes: [String: [DateInterval]] = [:]
        for line in lines {
            guard let label = line.activity else { continue }
            if line.begins { open[label] = line.time } else if let start = open.removeValue(forKey: label), start <= line.time {
                episodes[label, default: []].append(DateInterval(start: start, end: line.time))
            }
        }
        return episodes
    }
}
