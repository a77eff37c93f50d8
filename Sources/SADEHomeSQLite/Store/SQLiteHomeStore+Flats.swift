import Foundation
import GRDB
import SADEHealth
import SADEHome

extension SQLiteHomeStore {
    public func createFlat(_ plan: FlatPlan) async throws(HomeError) -> Flat {
        try plan.validate()
        let flat = try await write("creating a flat") { db -> Flat in
            try db.execute(
                sql: "INSERT INTO flat (name, resident, carers, time_zone, inactivity) VALUES (?, ?, ?, ?, ?)",
                arguments: [plan.name, plan.resident?.rawValue, try StoredJSON.text(plan.carers), plan.timeZone, try StoredJSON.text(plan.inactivity)])
            let id = db.lastInsertedRowID
            var taken: Set<String> = []
            for room in plan.rooms {
                try db.execute(
                    sql: "INSERT INTO room (flat, name, type, polygon, doors) VALUES (?, ?, ?, ?, ?)",
                    arguments: [id, room.name, room.type.rawValue, try StoredJSON.text(room.polygon), try StoredJSON.text(room.doors)])
                let roomID = db.lastInsertedRowID
                for device in room.devices { _ = try Self.insert(device, room: roomID, flat: id, taken: &taken, in: db) }
            }
            return try Self.flat(id, in: db)
        }
        cache(flat.devices)
        flatCache.withLock { $0[flat.id] = flat }
        return flat
    }

    public func updateFlat(_ id: FlatID, _ update: FlatUpdate) async throws(HomeError) -> Flat {
        try update.validate()
        let updated = try await write("updating flat \(id)") { db in
            let flat = update.applied(to: try Self.flat(id, in: db))
            try db.execute(
                sql: "UPDATE flat SET name = ?, resident = ?, carers = ?, time_zone = ?, inactivity = ? WHERE id = ?",
                arguments: [flat.name, flat.resident?.rawValue, try StoredJSON.text(flat.carers), flat.timeZone, try StoredJSON.text(flat.inactivity), id])
            return flat
        }
        flatCache.withLock { $0[id] = updated }
        return updated
    }

    public func addDevice(_ plan: DevicePlan, room: RoomID, flat: FlatID) async throws(HomeError) -> Device {
        try plan.validate(field: "device")
        let (device, updated) = try await write("adding a device") { db -> (Device, Flat) in
            let existing = try Self.flat(flat, in: db)
            guard existing.room(room) != nil else { throw HomeError.unknownRoom(room) }
            var taken = Set(existing.devices.map(\.objectID))
            let device = try Self.insert(plan, room: room, flat: flat, taken: &taken, in: db)
            return (device, try Self.flat(flat, in: db))
        }
        cache([device])
        flatCache.withLock { $0[flat] = updated }
        return device
    }

    public func flat(_ id: FlatID) async throws(HomeError) -> Flat {
        if let cached = flatCache.withLock({ $0[id] }) { return cached }
        let flat = try await read("reading flat \(id)") { db in try Self.flat(id, in: db) }
        flatCache.withLock { cache in if cache[id] == nil { cache[id] = flat } }  // a write since keeps its newer copy
        return flat
    }

    public func flats() async throws(HomeError) -> [Flat] {
        try await read("reading the flats") { db in
            try Int64.fetchAll(db, sql: "SELECT id FROM flat ORDER BY id").map { try Self.flat($0, in: db) }
        }
    }

    func cache(_ added: [Device]) {
        devices.withLock { cache in for device in added { cache[device.id] = device } }
    }

    // MARK: Rows

    static func flat(_ id: FlatID, in db: Database) throws -> Flat {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM flat WHERE id = ?", arguments: [id]) else { throw HomeError.unknownFlat(id) }
        let rooms = try Row.fetchAll(db, sql: "SELECT * FROM room WHERE flat = ? ORDER BY id", arguments: [id]).map { row in
            Room(
                id: row["id"], name: row["name"], type: RoomType(rawValue: row["type"]),
                polygon: try StoredJSON.value([PlanPoint].self, row["polygon"]), doors: try StoredJSON.value([Door].self, row["doors"]))
        }
        let devices = try Device.fetchAllRows(db, flat: id)
        return Flat(
            id: id, name: row["name"], resident: (row["resident"] as String?).map(PatientID.init(rawValue:)),
            carers: try StoredJSON.value([String].self, row["carers"]), timeZone: row["time_zone"],
            inactivity: try StoredJSON.value(InactivityRules.self, row["inactivity"]), rooms: rooms, devices: devices)
    }

    private static func insert(_ plan: DevicePlan, room: RoomID, flat: FlatID, taken: inout Set<String>, in db: Database) throws -> Device {
        let objectID = try plan.objectID(avoiding: &taken)
        let kind = plan.kind
        try db.execute(
            sql: """
                INSERT INTO device (flat, room, name, object_id, kind, category, unit, domain, device_class, is_generation,
                                    is_activity, x, y, battery_powered)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                flat, room, plan.name, objectID, kind.rawValue, kind.category.rawValue, kind.unit, kind.domain, kind.deviceClass,
                kind.isGeneration, kind.isResidentActivity, plan.position.x, plan.position.y, plan.isBatteryPowered,
            ])
        return Device(
            id: db.lastInsertedRowID, flat: flat, room: room, name: plan.name, kind: kind, position: plan.position,
            isBatteryPowered: plan.isBatteryPowered, objectID: objectID)
    }
}

extension Device {
    /// Every device (of `flat`, when given), by id.
    static func fetchAllRows(_ db: Database, flat: FlatID? = nil) throws -> [Device] {
        let sql = "SELECT * FROM device" + (flat == nil ? "" : " WHERE flat = ?") + " ORDER BY id"
        return try Row.fetchAll(db, sql: sql, arguments: flat.map { [$0] } ?? []).map { row in
            let kind = DeviceKind.stored(
                rawValue: row["kind"], category: row["category"], unit: row["unit"], domain: row["domain"], deviceClass: row["device_class"],
                isGeneration: row["is_generation"], isActivity: row["is_activity"])
            return Device(
                id: row["id"], flat: row["flat"], room: row["room"], name: row["name"], kind: kind,
                position: PlanPoint(x: row["x"], y: row["y"]), isBatteryPowered: row["battery_powered"], objectID: row["object_id"])
        }
    }
}
