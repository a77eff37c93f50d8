import Foundation
import PostgresNIO
import SADEHealth
import SADEHome
import SADEPostgres

extension PostgresHomeStore {
    public func createFlat(_ plan: FlatPlan) async throws(HomeError) -> Flat {
        try plan.validate()
        let database = self.database
        let flat = try await write("creating a flat") { connection -> Flat in
            let id = try await connection.rows(
                """
                INSERT INTO home_flat (name, resident, carers, time_zone, inactivity)
                VALUES (\(plan.name), \(plan.resident?.rawValue), \(try StoredJSON.text(plan.carers)), \(plan.timeZone),
                        \(try StoredJSON.text(plan.inactivity)))
                RETURNING id
                """, database
            ).first?.decode(Int64.self) ?? 0
            var taken: Set<String> = []
            for room in plan.rooms {
                let roomID = try await connection.rows(
                    """
                    INSERT INTO home_room (flat, name, type, polygon, doors)
                    VALUES (\(id), \(room.name), \(room.type.rawValue), \(try StoredJSON.text(room.polygon)), \(try StoredJSON.text(room.doors)))
                    RETURNING id
                    """, database
                ).first?.decode(Int64.self) ?? 0
                for device in room.devices { _ = try await Self.insert(device, room: roomID, flat: id, taken: &taken, on: connection, database) }
            }
            return try await Self.flat(id, on: connection, database)
        }
        cache(flat.devices)
        return flat
    }

    public func updateFlat(_ id: FlatID, _ update: FlatUpdate) async throws(HomeError) -> Flat {
        try update.validate()
        let database = self.database
        return try await write("updating flat \(id)") { connection in
            try await Self.lock(flat: id, on: connection, database)
            let flat = update.applied(to: try await Self.flat(id, on: connection, database))
            try await connection.rows(
                """
                UPDATE home_flat SET name = \(flat.name), resident = \(flat.resident?.rawValue), carers = \(try StoredJSON.text(flat.carers)),
                    time_zone = \(flat.timeZone), inactivity = \(try StoredJSON.text(flat.inactivity))
                WHERE id = \(id)
                """, database)
            return flat
        }
    }

    public func addDevice(_ plan: DevicePlan, room: RoomID, flat: FlatID) async throws(HomeError) -> Device {
        try plan.validate(field: "device")
        let database = self.database
        let device = try await write("adding a device") { connection -> Device in
            try await Self.lock(flat: flat, on: connection, database)  // object ids are chosen one device at a time
            let existing = try await Self.flat(flat, on: connection, database)
            guard existing.room(room) != nil else { throw HomeError.unknownRoom(room) }
            var taken = Set(existing.devices.map(\.objectID))
            return try await Self.insert(plan, room: room, flat: flat, taken: &taken, on: connection, database)
        }
        cache([device])
        return device
    }

    public func flat(_ id: FlatID) async throws(HomeError) -> Flat {
        let database = self.database
        let flat = try await read("reading flat \(id)") { connection in try await Self.flat(id, on: connection, database) }
        cache(flat.devices)
        return flat
    }

    public func flats() async throws(HomeError) -> [Flat] {
        let database = self.database
        let flats = try await read("reading the flats") { connection in
            var flats: [Flat] = []
            for row in try await connection.rows("SELECT id FROM home_flat ORDER BY id", database) {
                flats.append(try await Self.flat(try row.decode(Int64.self), on: connection, database))
            }
            return flats
        }
        cache(flats.flatMap(\.devices))
        return flats
    }

    func cache(_ added: [Device]) {
        devices.withLock { cache in for device in added { cache[device.id] = device } }
    }

    // MARK: Rows

    /// Locks a flat's row until the transaction ends: its changes and its events' batches
    /// take turns across nodes (the key itself is not locked: rooms and devices added to
    /// it meanwhile do not wait).
    ///
    /// - Throws: ``HomeError/unknownFlat(_:)``.
    static func lock(flat id: FlatID, on connection: PostgresConnection, _ database: PostgresPool) async throws {
        guard try await !connection.rows("SELECT id FROM home_flat WHERE id = \(id) FOR NO KEY UPDATE", database).isEmpty else {
            throw HomeError.unknownFlat(id)
        }
    }

    static func flat(_ id: FlatID, on connection: PostgresConnection, _ database: PostgresPool) async throws -> Flat {
        guard
            let row = try await connection.rows(
                "SELECT name, resident, carers, time_zone, inactivity FROM home_flat WHERE id = \(id)", database
            ).first
        else { throw HomeError.unknownFlat(id) }
        let (name, resident, carers, zone, inactivity) = try row.decode((String, String?, String, String, String).self)
        var rooms: [Room] = []
        for room in try await connection.rows("SELECT id, name, type, polygon, doors FROM home_room WHERE flat = \(id) ORDER BY id", database) {
            let (roomID, roomName, type, polygon, doors) = try room.decode((Int64, String, String, String, String).self)
            rooms.append(
                Room(
                    id: roomID, name: roomName, type: RoomType(rawValue: type), polygon: try StoredJSON.value([PlanPoint].self, polygon),
                    doors: try StoredJSON.value([Door].self, doors)))
        }
        let devices = try await Self.devices(
            PostgresQuery("SELECT \(unescaped: deviceColumns) FROM home_device WHERE flat = \(id) ORDER BY id"), on: connection, database)
        return Flat(
            id: id, name: name, resident: resident.map(PatientID.init(rawValue:)), carers: try StoredJSON.value([String].self, carers),
            timeZone: zone, inactivity: try StoredJSON.value(InactivityRules.self, inactivity), rooms: rooms, devices: devices)
    }

    static let deviceColumns = """
        id, flat, room, name, object_id, kind, category, unit, domain, device_class, is_generation, is_activity, x, y, battery_powered
        """

    /// The devices `query` selects (``deviceColumns``).
    static func devices(_ query: PostgresQuery, on connection: PostgresConnection, _ database: PostgresPool) async throws -> [Device] {
        try await connection.rows(query, database).map { row in
            let (id, flat, room, name, objectID, kind, category, unit, domain, deviceClass, isGeneration, isActivity, x, y, battery) =
                try row.decode((Int64, Int64, Int64, String, String, String, String, String, String, String?, Bool, Bool, Double, Double, Bool).self)
            return Device(
                id: id, flat: flat, room: room, name: name,
                kind: .stored(
                    rawValue: kind, category: category, unit: unit, domain: domain, deviceClass: deviceClass, isGeneration: isGeneration,
                    isActivity: isActivity),
                position: PlanPoint(x: x, y: y), isBatteryPowered: battery, objectID: objectID)
        }
    }

    private static func insert(
        _ plan: DevicePlan, room: RoomID, flat: FlatID, taken: inout Set<String>, on connection: PostgresConnection, _ database: PostgresPool
    ) async throws -> Device {
        let objectID = try plan.objectID(avoiding: &taken)
        let kind = plan.kind
        let id = try await connection.rows(
            """
            INSERT INTO home_device (flat, room, name, object_id, kind, category, unit, domain, device_class, is_generation,
                                     is_activity, x, y, battery_powered)
            VALUES (\(flat), \(room), \(plan.name), \(objectID), \(kind.rawValue), \(kind.category.rawValue), \(kind.unit), \(kind.domain),
                    \(kind.deviceClass), \(kind.isGeneration), \(kind.isResidentActivity), \(plan.position.x), \(plan.position.y),
                    \(plan.isBatteryPowered))
            RETURNING id
            """, database
        ).first?.decode(Int64.self) ?? 0
        return Device(
            id: id, flat: flat, room: room, name: plan.name, kind: kind, position: plan.position, isBatteryPowered: plan.isBatteryPowered,
            objectID: objectID)
    }
}
