import Foundation
import GRDB
import SADEHealth
import SADEHome

extension SQLiteHomeStore {
    public func createFlat(_ plan: FlatPlan) async throws(HomeError) -> Flat {
        try Self.validate(plan)
        let flat = try await write("creating a flat") { db -> Flat in
            try db.execute(
                sql: "INSERT INTO flat (name, resident, carers, time_zone, inactivity) VALUES (?, ?, ?, ?, ?)",
                arguments: [plan.name, plan.resident?.rawValue, try JSON.text(plan.carers), plan.timeZone, try JSON.text(plan.inactivity)])
            let id = db.lastInsertedRowID
            var taken: Set<String> = []
            for room in plan.rooms {
                try db.execute(
                    sql: "INSERT INTO room (flat, name, type, polygon, doors) VALUES (?, ?, ?, ?, ?)",
                    arguments: [id, room.name, room.type.rawValue, try JSON.text(room.polygon), try JSON.text(room.doors)])
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
        if let name = update.name { try Self.validate(name: name) }
        if let zone = update.timeZone, TimeZone(identifier: zone) == nil {
            throw .invalidValue(field: "timeZone", reason: "\(zone.prefix(60).debugDescription) is not an IANA time zone")
        }
        let updated = try await write("updating flat \(id)") { db in
            var flat = try Self.flat(id, in: db)
            if let name = update.name { flat.name = name }
            if let resident = update.resident { flat.resident = resident }
            if let carers = update.carers { flat.carers = carers }
            if let zone = update.timeZone { flat.timeZone = zone }
            if let rules = update.inactivity { flat.inactivity = rules }
            try db.execute(
                sql: "UPDATE flat SET name = ?, resident = ?, carers = ?, time_zone = ?, inactivity = ? WHERE id = ?",
                arguments: [flat.name, flat.resident?.rawValue, try JSON.text(flat.carers), flat.timeZone, try JSON.text(flat.inactivity), id])
            return flat
        }
        flatCache.withLock { $0[id] = updated }
        return updated
    }

    public func addDevice(_ plan: DevicePlan, room: RoomID, flat: FlatID) async throws(HomeError) -> Device {
        try Self.validate(plan, field: "device")
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
                polygon: try JSON.value([PlanPoint].self, row["polygon"]), doors: try JSON.value([Door].self, row["doors"]))
        }
        let devices = try Device.fetchAllRows(db, flat: id)
        return Flat(
            id: id, name: row["name"], resident: (row["resident"] as String?).map(PatientID.init(rawValue:)),
            carers: try JSON.value([String].self, row["carers"]), timeZone: row["time_zone"],
            inactivity: try JSON.value(InactivityRules.self, row["inactivity"]), rooms: rooms, devices: devices)
    }

    private static func insert(_ plan: DevicePlan, room: RoomID, flat: FlatID, taken: inout Set<String>, in db: Database) throws -> Device {
        var objectID = plan.objectID ?? Device.objectID(for: plan.name)
        if taken.contains(objectID) {
            guard plan.objectID == nil else { throw HomeError.invalidValue(field: "objectID", reason: "\(objectID) is taken in this flat") }
            objectID = (2...).lazy.map { "\(objectID)_\($0)" }.first { !taken.contains($0) } ?? objectID
        }
        taken.insert(objectID)
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

    // MARK: Validation

    static func validate(_ plan: FlatPlan) throws(HomeError) {
        try validate(name: plan.name)
        guard TimeZone(identifier: plan.timeZone) != nil else {
            throw .invalidValue(field: "timeZone", reason: "\(plan.timeZone.prefix(60).debugDescription) is not an IANA time zone")
        }
        if let resident = plan.resident {
            do { try resident.validate(field: "resident") } catch { throw .invalidValue(field: "resident", reason: "\(error)") }
        }
        for (index, room) in plan.rooms.enumerated() {
            let field = "rooms[\(index)]"
            guard !room.name.isEmpty, room.name.count <= 200 else { throw .invalidValue(field: "\(field).name", reason: "must be 1–200 characters") }
            guard room.polygon.count >= 3 else { throw .invalidValue(field: "\(field).polygon", reason: "needs at least 3 corners") }
            guard room.polygon.allSatisfy({ $0.x.isFinite && $0.y.isFinite }), room.doors.allSatisfy({ $0.position.x.isFinite && $0.position.y.isFinite })
            else { throw .invalidValue(field: "\(field).polygon", reason: "coordinates must be finite numbers of metres") }
            for (number, device) in room.devices.enumerated() { try validate(device, field: "\(field).devices[\(number)]") }
        }
    }

    static func validate(name: String) throws(HomeError) {
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty, name.count <= 200 else {
            throw .invalidValue(field: "name", reason: "must be 1–200 characters")
        }
    }

    static func validate(_ device: DevicePlan, field: String) throws(HomeError) {
        guard !device.name.isEmpty, device.name.count <= 200 else { throw .invalidValue(field: "\(field).name", reason: "must be 1–200 characters") }
        guard device.position.x.isFinite, device.position.y.isFinite else {
            throw .invalidValue(field: "\(field).position", reason: "must be finite numbers of metres")
        }
        if let objectID = device.objectID, objectID.isEmpty || objectID != Device.objectID(for: objectID) {
            throw .invalidValue(field: "\(field).objectID", reason: "must be lowercase letters, digits and _ (e.g. kitchen_motion)")
        }
    }
}

extension Device {
    /// Every device (of `flat`, when given), by id.
    static func fetchAllRows(_ db: Database, flat: FlatID? = nil) throws -> [Device] {
        let sql = "SELECT * FROM device" + (flat == nil ? "" : " WHERE flat = ?") + " ORDER BY id"
        return try Row.fetchAll(db, sql: sql, arguments: flat.map { [$0] } ?? []).map { row in
            let kind = DeviceKind(
                rawValue: row["kind"], category: DeviceCategory(rawValue: row["category"]) ?? .detection, unit: row["unit"],
                domain: row["domain"], deviceClass: row["device_class"], isGeneration: row["is_generation"],
                isResidentActivity: row["is_activity"])
            return Device(
                id: row["id"], flat: row["flat"], room: row["room"], name: row["name"], kind: kind,
                position: PlanPoint(x: row["x"], y: row["y"]), isBatteryPowered: row["battery_powered"], objectID: row["object_id"])
        }
    }
}

/// JSON columns.
enum JSON {
    static func text<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }

    static func value<T: Decodable>(_ type: T.Type, _ text: String?) throws -> T {
        guard let text else { throw HomeError.storage("a JSON column is empty") }
        return try JSONDecoder().decode(type, from: Data(text.utf8))
    }
}
