import Foundation
import PostgresNIO
import SADEHome
import SADEPostgres

extension PostgresHomeStore {
    @discardableResult
    public func record(_ events: [StateEvent]) async throws(HomeError) -> [RecordedEvent] {
        guard !events.isEmpty else { return [] }
        let known = try await knownDevices(events.map(\.device))
        try StateEvent.validate(events) { known[$0] != nil }
        let database = self.database
        return try await write("recording \(events.count) events") { connection in
            // One batch of a flat at a time, whichever node takes it: the latest states,
            // hours and occupancy below read what the batch before left.
            for flat in Set(known.values.map(\.flat)).sorted() { try await Self.lock(flat: flat, on: connection, database) }
            let recorded = try await Self.insert(events, devices: known, on: connection, database)
            try await Self.upsert(HourAggregate.hours(of: events), on: connection, database)
            try await Self.updateLatest(events, on: connection, database)
            try await Self.updateOccupancy(events, devices: known, on: connection, database)
            return recorded
        }
    }

    /// Inserts the events in one statement, in their order, so that their sequence numbers follow it.
    private static func insert(
        _ events: [StateEvent], devices: [DeviceID: Device], on connection: PostgresConnection, _ database: PostgresPool
    ) async throws -> [RecordedEvent] {
        let flats = events.map { devices[$0.device]?.flat ?? 0 }
        let activity = events.map { devices[$0.device]?.kind.isResidentActivity ?? false }
        let rows = try await connection.rows(
            """
            INSERT INTO home_event (device, flat, value, battery, time, activity)
            SELECT device, flat, value, NULLIF(battery, -1), time, activity
            FROM UNNEST(\(events.map(\.device))::bigint[], \(flats)::bigint[], \(events.map(\.value))::float8[],
                        \(events.map { $0.battery ?? -1 })::bigint[], \(events.map { milliseconds($0.time) })::bigint[], \(activity)::bool[])
                WITH ORDINALITY AS batch (device, flat, value, battery, time, activity, position)
            ORDER BY position
            RETURNING seq
            """, database)
        let sequences = try rows.map { try $0.decode(Int64.self) }.sorted()
        guard sequences.count == events.count else { throw HomeError.storage("\(sequences.count) of \(events.count) events were stored") }
        return zip(sequences, events).map { RecordedEvent(sequence: $0, flat: devices[$1.device]?.flat ?? 0, event: $1) }
    }

    /// Adds what the batch brings to each device's hours (one statement).
    private static func upsert(_ hours: [HourKey: HourAggregate], on connection: PostgresConnection, _ database: PostgresPool) async throws {
        let list = Array(hours)
        try await connection.rows(
            """
            INSERT INTO home_statistics_hourly AS h (device, hour, count, sum, min, max, first_value, first_time, last_value, last_time)
            SELECT * FROM UNNEST(
                \(list.map(\.key.device))::bigint[], \(list.map(\.key.hour))::bigint[], \(list.map(\.value.count))::bigint[],
                \(list.map(\.value.sum))::float8[], \(list.map(\.value.min))::float8[], \(list.map(\.value.max))::float8[],
                \(list.map(\.value.firstValue))::float8[], \(list.map(\.value.firstTime))::bigint[],
                \(list.map(\.value.lastValue))::float8[], \(list.map(\.value.lastTime))::bigint[])
            ON CONFLICT (device, hour) DO UPDATE SET
                count = h.count + excluded.count, sum = h.sum + excluded.sum,
                min = LEAST(h.min, excluded.min), max = GREATEST(h.max, excluded.max),
                first_value = CASE WHEN excluded.first_time < h.first_time THEN excluded.first_value ELSE h.first_value END,
                first_time = LEAST(h.first_time, excluded.first_time),
                last_value = CASE WHEN excluded.last_time >= h.last_time THEN excluded.last_value ELSE h.last_value END,
                last_time = GREATEST(h.last_time, excluded.last_time)
            """, database)
    }

    /// Each device's latest event by time (not arrival); `last_changed` moves when the value does.
    private static func updateLatest(_ events: [StateEvent], on connection: PostgresConnection, _ database: PostgresPool) async throws {
        let byDevice = Dictionary(grouping: events, by: \.device)
        let current = try await latest(
            PostgresQuery(
                "SELECT device, value, battery, time, last_changed, last_battery FROM home_device_latest WHERE device = ANY(\(Array(byDevice.keys)))"),
            on: connection, database)
        let moved = byDevice.compactMap { device, list in StoredLatest.after(list, from: current[device]).map { (device, $0) } }
        guard !moved.isEmpty else { return }
        try await connection.rows(
            """
            INSERT INTO home_device_latest (device, value, battery, time, last_changed, last_battery)
            SELECT device, value, NULLIF(battery, -1), time, last_changed, NULLIF(last_battery, -1)
            FROM UNNEST(\(moved.map(\.0))::bigint[], \(moved.map(\.1.value))::float8[], \(moved.map { $0.1.battery ?? -1 })::bigint[],
                        \(moved.map(\.1.time))::bigint[], \(moved.map(\.1.lastChanged))::bigint[], \(moved.map { $0.1.lastBattery ?? -1 })::bigint[])
                AS latest (device, value, battery, time, last_changed, last_battery)
            ON CONFLICT (device) DO UPDATE SET value = excluded.value, battery = excluded.battery, time = excluded.time,
                last_changed = excluded.last_changed, last_battery = excluded.last_battery
            """, database)
    }

    /// Latest states `query` selects (device, value, battery, time, last_changed, last_battery), by device.
    static func latest(_ query: PostgresQuery, on connection: PostgresConnection, _ database: PostgresPool) async throws -> [DeviceID: StoredLatest] {
        var latest: [DeviceID: StoredLatest] = [:]
        for row in try await connection.rows(query, database) {
            let (device, value, battery, time, changed, lastBattery) = try row.decode((Int64, Double, Int?, Int64, Int64, Int?).self)
            latest[device] = StoredLatest(value: value, battery: battery, time: time, lastChanged: changed, lastBattery: lastBattery)
        }
        return latest
    }

    /// A motion detected in another room than the resident's moves them there.
    private static func updateOccupancy(
        _ events: [StateEvent], devices: [DeviceID: Device], on connection: PostgresConnection, _ database: PostgresPool
    ) async throws {
        let flats = Array(Set(StoredOccupancy.motions(in: events, devices: devices).compactMap { devices[$0.device]?.flat }))
        guard !flats.isEmpty else { return }
        var current: [FlatID: StoredOccupancy] = [:]
        for row in try await connection.rows("SELECT flat, room, previous_room, since FROM home_occupancy WHERE flat = ANY(\(flats))", database) {
            let (flat, room, previous, since) = try row.decode((Int64, Int64, Int64?, Int64).self)
            current[flat] = StoredOccupancy(room: room, previousRoom: previous, since: since)
        }
        for (flat, occupancy) in StoredOccupancy.after(events, devices: devices, current: current) {
            try await connection.rows(
                """
                INSERT INTO home_occupancy (flat, room, previous_room, since) VALUES (\(flat), \(occupancy.room), \(occupancy.previousRoom), \(occupancy.since))
                ON CONFLICT (flat) DO UPDATE SET room = excluded.room, previous_room = excluded.previous_room, since = excluded.since
                """, database)
        }
    }

    public func states(flat id: FlatID) async throws(HomeError) -> [DeviceState] {
        let database = self.database
        let (flat, latest) = try await read("reading the states of flat \(id)") { connection in
            let flat = try await Self.flat(id, on: connection, database)
            let latest = try await Self.latest(
                """
                SELECT l.device, l.value, l.battery, l.time, l.last_changed, l.last_battery
                FROM home_device_latest l JOIN home_device d ON d.id = l.device WHERE d.flat = \(id)
                """, on: connection, database)
            return (flat, latest)
        }
        cache(flat.devices)
        return flat.devices.map { device in
            latest[device.id]?.state(of: device) ?? DeviceState(device: device, latest: nil, lastChanged: nil, battery: nil)
        }
    }

    public func history(device: DeviceID, from start: Date, to end: Date, limit: Int?) async throws(HomeError) -> [StateEvent] {
        guard try await knownDevices([device])[device] != nil else { throw .unknownDevice(device) }
        let database = self.database
        return try await read("reading the history of device \(device)") { connection in
            try await connection.rows(
                """
                SELECT value, battery, time FROM home_event
                WHERE device = \(device) AND time >= \(Self.milliseconds(start)) AND time < \(Self.milliseconds(end)) ORDER BY time, seq LIMIT \(limit)
                """, database
            ).map { row in
                let (value, battery, time) = try row.decode((Double, Int?, Int64).self)
                return StateEvent(device: device, value: value, battery: battery, time: HomeTime.date(time))
            }
        }
    }

    public func activity(flat: FlatID, from start: Date, to end: Date) async throws(HomeError) -> [StateEvent] {
        let database = self.database
        return try await read("reading the activity of flat \(flat)") { connection in
            try await connection.rows(
                """
                SELECT device, value, battery, time FROM home_event
                WHERE flat = \(flat) AND activity AND time >= \(Self.milliseconds(start)) AND time < \(Self.milliseconds(end)) ORDER BY time, seq
                """, database
            ).map { row in
                let (device, value, battery, time) = try row.decode((Int64, Double, Int?, Int64).self)
                return StateEvent(device: device, value: value, battery: battery, time: HomeTime.date(time))
            }
        }
    }

    public func lastActivity(flat: FlatID) async throws(HomeError) -> Date? {
        let database = self.database
        return try await read("reading the last activity of flat \(flat)") { connection in
            try await connection.rows(
                "SELECT time FROM home_event WHERE flat = \(flat) AND activity AND value >= 0.5 ORDER BY time DESC LIMIT 1", database
            ).first.map { HomeTime.date(try $0.decode(Int64.self)) }
        }
    }

    @discardableResult
    public func deleteEvents(before date: Date) async throws(HomeError) -> Int {
        let database = self.database
        return try await write("deleting old events") { connection in
            try await connection.rows(
                "WITH gone AS (DELETE FROM home_event WHERE time < \(Self.milliseconds(date)) RETURNING 1) SELECT count(*) FROM gone", database
            ).first?.decode(Int.self) ?? 0
        }
    }

    public func occupancy(flat: FlatID) async throws(HomeError) -> Occupancy? {
        let database = self.database
        return try await read("reading the occupancy of flat \(flat)") { connection in
            try await connection.rows("SELECT room, previous_room, since FROM home_occupancy WHERE flat = \(flat)", database).first.map { row in
                let (room, previous, since) = try row.decode((Int64, Int64?, Int64).self)
                return StoredOccupancy(room: room, previousRoom: previous, since: since).occupancy(of: flat)
            }
        }
    }
}
