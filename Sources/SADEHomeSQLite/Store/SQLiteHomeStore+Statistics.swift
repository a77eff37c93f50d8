import Foundation
import GRDB
import SADEHome

extension SQLiteHomeStore {
    public func statistics(devices ids: [DeviceID], from start: Date, to end: Date, period: StatisticsPeriod) async throws(HomeError)
        -> [DeviceID: [DeviceStatistic]]
    {
        let known = devices.withLock { $0 }
        for id in ids where known[id] == nil { throw .unknownDevice(id) }
        let zones = try await timeZones(of: Set(ids.compactMap { known[$0]?.flat }))
        return try await read("reading statistics") { db in
            var result: [DeviceID: [DeviceStatistic]] = [:]
            let rows = try db.cachedStatement(sql: """
                SELECT hour, count, sum, min, max, first_value, last_value FROM statistics_hourly
                WHERE device = ? AND hour >= ? AND hour < ? ORDER BY hour
                """)
            let before = try db.cachedStatement(sql: "SELECT last_value FROM statistics_hourly WHERE device = ? AND hour < ? ORDER BY hour DESC LIMIT 1")
            for id in ids {
                guard let device = known[id] else { continue }
                let previous = try Double.fetchOne(before, arguments: [id, Self.milliseconds(start)])
                let hours = try Row.fetchAll(rows, arguments: [id, Self.milliseconds(start), Self.milliseconds(end)]).map { row in
                    StoredHour(hour: row[0], count: row[1], sum: row[2], min: row[3], max: row[4], firstValue: row[5], lastValue: row[6])
                }
                result[id] = DeviceStatistic.buckets(hours, previous: previous, period: period, calendar: HomeTime.calendar(zones[device.flat]))
            }
            return result
        }
    }

    private func timeZones(of flats: Set<FlatID>) async throws(HomeError) -> [FlatID: String] {
        try await read("reading time zones") { db in
            var zones: [FlatID: String] = [:]
            for flat in flats {
                guard let zone = try String.fetchOne(db, sql: "SELECT time_zone FROM flat WHERE id = ?", arguments: [flat]) else {
                    throw HomeError.unknownFlat(flat)
                }
                zones[flat] = zone
            }
            return zones
        }
    }
}
