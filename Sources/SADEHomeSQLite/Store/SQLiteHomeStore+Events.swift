import Foundation
import GRDB
import SADEHome

extension SQLiteHomeStore {
    @discardableResult
    public func record(_ events: [StateEvent]) async throws(HomeError) -> [RecordedEvent] {
        guard !events.isEmpty else { return [] }
        let known = devices.withLock { $0 }
        for (index, event) in events.enumerated() {
            guard known[event.device] != nil else { throw .unknownDevice(event.device) }
            guard event.value.isFinite else { throw .invalidValue(field: "events[\(index)].value", reason: "must be a finite number") }
            if let battery = event.battery, !(0...100).contains(battery) {
                throw .invalidValue(field: "events[\(index)].battery", reason: "must be 0–100 (percent)")
            }
        }
        return try await write("recording \(events.count) events") { db in try Self.record(events, devices: known, in: db) }
    }

    /// Inserts the events, then updates each device's latest state, the hourly
    /// statistics (one upsert per device and hour) and occupancy.
    private static func record(_ events: [StateEvent], devices: [DeviceID: Device], in db: Database) throws -> [RecordedEvent] {
        let insert = try db.cachedStatement(sql: "INSERT INTO event (device, flat, value, battery, time, activity) VALUES (?, ?, ?, ?, ?, ?)")
        var recorded: [RecordedEvent] = []
        recorded.reserveCapacity(events.count)
        var hours: [HourKey: HourAggregate] = [:]
        for event in events {
            guard let device = devices[event.device] else { throw HomeError.unknownDevice(event.device) }
            let time = milliseconds(event.time)
            insert.setUncheckedArguments([event.device, device.flat, event.value, event.battery, time, device.kind.isResidentActivity])
            try insert.execute()
            recorded.append(RecordedEvent(sequence: db.lastInsertedRowID, flat: device.flat, event: event))
            hours[HourKey(device: event.device, hour: time - time.modulo(3_600_000)), default: HourAggregate()].add(event.value, at: time)
        }
        try upsert(hours, in: db)
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
        var byDevice: [DeviceID: [StateEvent]] = [:]
        for event in events { byDevice[event.device, default: []].append(event) }
        let select = try db.cachedStatement(sql: "SELECT value, battery, time, last_changed FROM device_latest WHERE device = ?")
        let upsert = try db.cachedStatement(sql: """
            INSERT OR REPLACE INTO device_latest (device, value, battery, time, last_changed, last_battery) VALUES (?, ?, ?, ?, ?, ?)
            """)
        for (device, list) in byDevice {
            let row = try Row.fetchOne(select, arguments: [device])
            var value: Double? = row?["value"], battery: Int? = row?["battery"]
            var time: Int64 = row?["time"] ?? .min, changed: Int64 = row?["last_changed"] ?? .min
            var lastBattery: Int? = battery
            var moved = false
            for event in list.sorted(by: { $0.time < $1.time }) {
                let at = milliseconds(event.time)
                guard at >= time else { continue }  // older than what is known: history only
                if value != event.value { changed = at }
                value = event.value
                time = at
                if let charge = event.battery { battery = charge; lastBattery = charge }
                moved = true
            }
            guard moved, let value else { continue }
            upsert.setUncheckedArguments([device, value, battery, time, changed, lastBattery])
            try upsert.execute()
        }
    }

    /// A motion detected in another room than the resident's moves them there.
    private static func updateOccupancy(_ events: [StateEvent], devices: [DeviceID: Device], in db: Database) throws {
        let motions = events.filter { devices[$0.device]?.kind.rawValue == DeviceKind.motion.rawValue && $0.isOn }.sorted { $0.time < $1.time }
        guard !motions.isEmpty else { return }
        var current: [FlatID: (room: RoomID, previous: RoomID?, since: Int64)] = [:]
        for event in motions {
            guard let device = devices[event.device] else { continue }
            if current[device.flat] == nil, let row = try Row.fetchOne(db, sql: "SELECT * FROM occupancy WHERE flat = ?", arguments: [device.flat]) {
                current[device.flat] = (row["room"], row["previous_room"], row["since"])
            }
            let at = milliseconds(event.time)
            if let now = current[device.flat] {
                guard now.room != device.room, at >= now.since else { continue }
                current[device.flat] = (device.room, now.room, at)
            } else {
                current[device.flat] = (device.room, nil, at)
            }
        }
        for (flat, occupancy) in current {
            try db.execute(
                sql: "INSERT OR REPLACE INTO occupancy (flat, room, previous_room, since) VALUES (?, ?, ?, ?)",
                arguments: [flat, occupancy.room, occupancy.previous, occupancy.since])
        }
    }

    public func states(flat: FlatID) async throws(HomeError) -> [DeviceState] {
        let flatDevices = try await self.flat(flat).devices
        let rows = try await read("reading the states of flat \(flat)") { db in
            try Row.fetchAll(db, sql: """
                SELECT l.* FROM device_latest l JOIN device d ON d.id = l.device WHERE d.flat = ?
                """, arguments: [flat]).map { row -> (DeviceID, StateEvent, Int64, Int?) in
                let device: DeviceID = row["device"]
                let event = StateEvent(device: device, value: row["value"], battery: row["battery"], time: Self.date(row["time"]))
                return (device, event, row["last_changed"], row["last_battery"])
            }
        }
        let latest = Dictionary(uniqueKeysWithValues: rows.map { ($0.0, ($0.1, $0.2, $0.3)) })
        return flatDevices.map { device in
            let known = latest[device.id]
            return DeviceState(device: device, latest: known?.0, lastChanged: known.map { Self.date($0.1) }, battery: known?.2)
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
            try Row.fetchOne(db, sql: "SELECT * FROM occupancy WHERE flat = ?", arguments: [flat]).map { row in
                Occupancy(flat: flat, room: row["room"], previousRoom: row["previous_room"], since: Self.date(row["since"]))
            }
        }
    }
}

/// A device's hour.
struct HourKey: Hashable {
    let device: DeviceID
    let hour: Int64
}

/// What a batch adds to a device's hour.
struct HourAggregate {
    var count = 0
    var sum = 0.0
    var min = Double.infinity
    var max = -Double.infinity
    var firstValue = 0.0
    var firstTime = Int64.max
    var lastValue = 0.0
    var lastTime = Int64.min

    mutating func add(_ value: Double, at time: Int64) {
        count += 1
        sum += value
        min = Swift.min(min, value)
        max = Swift.max(max, value)
        if time < firstTime { firstTime = time; firstValue = value }
        if time >= lastTime { lastTime = time; lastValue = value }
    }
}

extension Int64 {
    /// The remainder that is never negative (times before 1970 fall into the right hour).
    func modulo(_ divisor: Int64) -> Int64 {
        let remainder = self % divisor
        return remainder < 0 ? remainder + divisor : remainder
    }
}
