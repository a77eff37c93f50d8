import Foundation
import GRDB
import SADEHome

extension SQLiteHomeStore {
    @discardableResult
    public func record(_ events: [StateEvent]) async throws(HomeError) -> [RecordedEvent] {
        guard !events.isEmpty else { return [] }
        let known = devices.withLock { $0 }
        try StateEvent.validate(events) { known[$0] != nil }
        return try await write("recording \(events.count) events") { db in try Self.record(events, devices: known, in: db) }
    }

    /// Inserts the events, then updates each device's latest state, the hourly
    /// statistics (one upsert per device and hour) and occupancy.
    private static func record(_ events: [StateEvent], devices: [DeviceID: Device], in db: Database) throws -> [RecordedEvent] {
        let insert = try db.cachedStatement(sql: "INSERT INTO event (device, flat, value, battery, time, activity) VALUES (?, ?, ?, ?, ?, ?)")
        var recorded: [RecordedEvent] = []
        recorded.reserveCapacity(events.count)
        for event in events {
            guard let device = devices[event.device] else { throw HomeError.unknownDevice(event.device) }
            let time = milliseconds(event.time)
            insert.setUncheckedArguments([event.device, device.flat, event.value, event.battery, time, device.kind.isResidentActivity])
            try insert.execute()
            recorded.append(RecordedEvent(sequence: db.lastInsertedRowID, flat: device.flat, event: event))
        }
        try upsert(HourAggregate.hours(of: events), in: db)
        try updateLatest(events, in: db)
        try updateOccupancy(events, devices: devices, in: db)
        return recorded
    }

    private static func upsert(_ hours: [HourKey: HourAggregate], in db: Database) throws {
        let statement = try db.cachedStatement(sql: """
            INSERT INTO statistics_hourly (device, hour, count, sum, min, max, first_value, first_time, last_value, last_time)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (device, hour) DO UPDATE SET
                count = count + excluded.count, sum = sum + excluded.sum,
                min = min(min, excluded.min), max = max(max, excluded.max),
                first_value = CASE WHEN excluded.first_time < first_time THEN excluded.first_value ELSE first_value END,
                first_time = min(first_time, excluded.first_time),
                last_value = CASE WHEN excluded.last_time >= last_time THEN excluded.last_value ELSE last_value END,
                last_time = max(last_time, excluded.last_time)
            """)
        for (key, hour) in hours {
            statement.setUncheckedArguments([
                key.device, key.hour, hour.count, hour.sum, hour.min, hour.max, hour.firstValue, hour.firstTime, hour.lastValue, hour.lastTime,
            ])
            try statement.execute()
        }
    }

    /// Each device's latest event by time (not arrival); `last_changed` moves when the value does.
    private static func updateLatest(_ events: [StateEvent], in db: Database) throws {
        let select = try db.cachedStatement(sql: "SELECT value, battery, time, last_changed, last_battery FROM device_latest WHERE device = ?")
        let upsert = try db.cachedStatement(sql: """
            INSERT OR REPLACE INTO device_latest (device, value, battery, time, last_changed, last_battery) VALUES (?, ?, ?, ?, ?, ?)
            """)
        for (device, list) in Dictionary(grouping: events, by: \.device) {
            let current = try Row.fetchOne(select, arguments: [device]).map { row in
                StoredLatest(value: row[0], battery: row[1], time: row[2], lastChanged: row[3], lastBattery: row[1])
            }
            guard let latest = StoredLatest.after(list, from: current) else { continue }
            upsert.setUncheckedArguments([device, latest.value, latest.battery, latest.time, latest.lastChanged, latest.lastBattery])
            try upsert.execute()
        }
    }

    /// A motion detected in another room than the resident's moves them there.
    private static func updateOccupancy(_ events: [StateEvent], devices: [DeviceID: Device], in db: Database) throws {
        let flats = Set(StoredOccupancy.motions(in: events, devices: devices).compactMap { devices[$0.device]?.flat })
        var current: [FlatID: StoredOccupancy] = [:]
        for flat in flats {
            if let row = try Row.fetchOne(db, sql: "SELECT room, previous_room, since FROM occupancy WHERE flat = ?", arguments: [flat]) {
                current[flat] = StoredOccupancy(room: row[0], previousRoom: row[1], since: row[2])
            }
        }
        for (flat, occupancy) in StoredOccupancy.after(events, devices: devices, current: current) {
            try db.execute(
                sql: "INSERT OR REPLACE INTO occupancy (flat, room, previous_room, since) VALUES (?, ?, ?, ?)",
                arguments: [flat, occupancy.room, occupancy.previousRoom, occupancy.since])
        }
    }

    public func states(flat: FlatID) async throws(HomeError) -> [DeviceState] {
        let flatDevices = try await self.flat(flat).devices
        let latest = try await read("reading the states of flat \(flat)") { db in
            try Row.fetchAll(db, sql: """
                SELECT l.device, l.value, l.battery, l.time, l.last_changed, l.last_battery
                FROM device_latest l JOIN device d ON d.id = l.device WHERE d.flat = ?
                """, arguments: [flat]).reduce(into: [DeviceID: StoredLatest]()) { latest, row in
                latest[row[0]] = StoredLatest(value: row[1], battery: row[2], time: row[3], lastChanged: row[4], lastBattery: row[5])
            }
        }
        return flatDevices.map { device in
            latest[device.id]?.state(of: device) ?? DeviceState(device: device, latest: nil, lastChanged: nil, battery: nil)
        }
    }

    public func history(device: DeviceID, from start: Date, to end: Date, limit: Int?) async throws(HomeError) -> [StateEvent] {
        guard devices.withLock({ $0[device] }) != nil else { throw .unknownDevice(device) }
        return try await read("reading the history of device \(device)") { db in
            let statement = try db.cachedStatement(
                sql: "SELECT value, battery, time FROM event WHERE device = ? AND time >= ? AND time < ? ORDER BY time LIMIT ?")
            var events: [StateEvent] = []
            let cursor = try Row.fetchCursor(statement, arguments: [device, Self.milliseconds(start), Self.milliseconds(end), limit ?? -1])
            while let row = try cursor.next() {
                events.append(StateEvent(device: device, value: row[0], battery: row[1], time: Self.date(row[2])))
            }
            return events
        }
    }

    public func activity(flat: FlatID, from start: Date, to end: Date) async throws(HomeError) -> [StateEvent] {
        try await read("reading the activity of flat \(flat)") { db in
            try Row.fetchAll(db, sql: """
                SELECT device, value, battery, time FROM event WHERE flat = ? AND activity = 1 AND time >= ? AND time < ? ORDER BY time
                """, arguments: [flat, Self.milliseconds(start), Self.milliseconds(end)]).map { row in
                StateEvent(device: row[0], value: row[1], battery: row[2], time: Self.date(row[3]))
            }
        }
    }

    public func lastActivity(flat: FlatID) async throws(HomeError) -> Date? {
        try await read("reading the last activity of flat \(flat)") { db in
            try Int64.fetchOne(db, sql: """
                SELECT time FROM event WHERE flat = ? AND activity = 1 AND value >= 0.5 ORDER BY time DESC LIMIT 1
                """, arguments: [flat]).map(Self.date)
        }
    }

    @discardableResult
    public func deleteEvents(before date: Date) async throws(HomeError) -> Int {
        try await write("deleting old events") { db in
            try db.execute(sql: "DELETE FROM event WHERE time < ?", arguments: [Self.milliseconds(date)])
            return db.changesCount
        }
    }

    public func occupancy(flat: FlatID) async throws(HomeError) -> Occupancy? {
        try await read("reading the occupancy of flat \(flat)") { db in
            try Row.fetchOne(db, sql: "SELECT room, previous_room, since FROM occupancy WHERE flat = ?", arguments: [flat]).map { row in
                StoredOccupancy(room: row[0], previousRoom: row[1], since: row[2]).occupancy(of: flat)
            }
        }
    }
}
