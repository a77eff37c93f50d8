import Foundation
import PostgresNIO
import SADEHome
import SADEPostgres

extension PostgresHomeStore {
    public func statistics(devices ids: [DeviceID], from start: Date, to end: Date, period: StatisticsPeriod) async throws(HomeError)
        -> [DeviceID: [DeviceStatistic]]
    {
        let known = try await knownDevices(ids)
        for id in ids where known[id] == nil { throw .unknownDevice(id) }
        let database = self.database
        return try await read("reading statistics") { connection in
            var zones: [FlatID: String] = [:]
            for flat in Set(known.values.map(\.flat)) {
                guard let zone = try await connection.rows("SELECT time_zone FROM home_flat WHERE id = \(flat)", database).first else {
                    throw HomeError.unknownFlat(flat)
                }
                zones[flat] = try zone.decode(String.self)
            }
            var result: [DeviceID: [DeviceStatistic]] = [:]
            for id in ids {
                guard let device = known[id] else { continue }
                let previous = try await connection.rows(
                    """
                    SELECT last_value FROM home_statistics_hourly WHERE device = \(id) AND hour < \(Self.milliseconds(start)) ORDER BY hour DESC LIMIT 1
                    """, database
                ).first?.decode(Double.self)
                let hours = try await connection.rows(
                    """
                    SELECT hour, count, sum, min, max, first_value, last_value FROM home_statistics_hourly
                    WHERE device = \(id) AND hour >= \(Self.milliseconds(start)) AND hour < \(Self.milliseconds(end)) ORDER BY hour
                    """, database
                ).map { row in
                    let (hour, count, sum, min, max, first, last) = try row.decode((Int64, Int, Double, Double, Double, Double, Double).self)
                    return StoredHour(hour: hour, count: count, sum: sum, min: min, max: max, firstValue: first, lastValue: last)
                }
                result[id] = DeviceStatistic.buckets(hours, previous: previous, period: period, calendar: HomeTime.calendar(zones[device.flat]))
            }
            return result
        }
    }
}
