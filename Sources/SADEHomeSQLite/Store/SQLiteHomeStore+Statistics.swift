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
                let calendar = Self.calendar(zones[device.flat])
                var previous = try Double.fetchOne(before, arguments: [id, Self.milliseconds(start)])
                var buckets: [DeviceStatistic] = []
                var current: (start: Date, aggregate: BucketAggregate)?
                func close() {
                    guard let (bucketStart, aggregate) = current else { return }
                    buckets.append(aggregate.statistic(start: bucketStart, end: period.next(after: bucketStart, in: calendar), previous: previous))
                    previous = aggregate.lastValue
                }
                let cursor = try Row.fetchCursor(rows, arguments: [id, Self.milliseconds(start), Self.milliseconds(end)])
                while let row = try cursor.next() {
                    let hour = Self.date(row[0])
                    let bucketStart = period == .hour ? hour : period.start(of: hour, in: calendar)
                    if current?.start != bucketStart {
                        close()
                        current = (bucketStart, BucketAggregate())
                    }
                    current?.aggregate.add(count: row[1], sum: row[2], min: row[3], max: row[4], first: row[5], last: row[6])
                }
                close()
                result[id] = buckets
            }
            return result
        }
    }

    public func energyBalance(flat: FlatID, from start: Date, to end: Date, period: StatisticsPeriod) async throws(HomeError) -> [EnergyBalance] {
        let meters = try await self.flat(flat).devices.filter { $0.kind.category == .metering && ($0.kind.unit == "J" || $0.kind.unit == "W") }
        let calendar = Self.calendar(try await timeZones(of: [flat])[flat])
        var edges: [Date] = []
        var edge = period.start(of: start, in: calendar)
        while edge < end {
            edges.append(edge)
            edge = period.next(after: edge, in: calendar)
        }
        edges.append(edge)
        guard edges.count >= 2 else { return [] }
        var consumed = [Double](repeating: 0, count: edges.count - 1), generated = consumed
        let counters = meters.filter { $0.kind.unit == "J" }
        let statistics = try await self.statistics(devices: counters.map(\.id), from: edges[0], to: edges[edges.count - 1], period: period)
        for counter in counters {
            for row in statistics[counter.id] ?? [] {
                guard let index = edges.firstIndex(of: row.start), index < consumed.count else { continue }
                let increase = max(0, row.change)  // a counter that was reset adds nothing
                if counter.kind.isGeneration { generated[index] += increase } else { consumed[index] += increase }
            }
        }
        // A direction measured by an energy counter is not counted again from its power meters.
        let counted = Set(counters.map(\.kind.isGeneration))
        for meter in meters where meter.kind.unit == "W" && !counted.contains(meter.kind.isGeneration) {
            let readings = try await history(device: meter.id, from: edges[0].addingTimeInterval(-Self.powerHold), to: edges[edges.count - 1], limit: nil)
            let joules = Self.integrate(readings, edges: edges)
            for index in joules.indices {
                if meter.kind.isGeneration { generated[index] += joules[index] } else { consumed[index] += joules[index] }
            }
        }
        return (0..<consumed.count).map { EnergyBalance(start: edges[$0], end: edges[$0 + 1], consumed: consumed[$0], generated: generated[$0]) }
    }

    /// The longest a power reading counts for: a meter that falls silent adds no energy after an hour.
    static let powerHold: TimeInterval = 3600

    /// Power readings (W) integrated over time (J) per bucket between `edges`: each
    /// reading holds until the next one, at most ``powerHold``.
    static func integrate(_ readings: [StateEvent], edges: [Date]) -> [Double] {
        var joules = [Double](repeating: 0, count: edges.count - 1)
        for (index, reading) in readings.enumerated() {
            let next = index + 1 < readings.count ? readings[index + 1].time : edges[edges.count - 1]
            var from = reading.time
            let until = min(next, reading.time.addingTimeInterval(powerHold), edges[edges.count - 1])
            guard until > from else { continue }
            var bucket = max(0, (edges.lastIndex { $0 <= from } ?? 0))
            while from < until, bucket < joules.count {
                let cut = min(until, edges[bucket + 1])
                if cut > from, from >= edges[bucket] { joules[bucket] += reading.value * cut.timeIntervalSince(from) }
                from = max(from, cut)
                bucket += 1
            }
        }
        return joules
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

    static func calendar(_ zone: String?) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone.flatMap(TimeZone.init(identifier:)) ?? .gmt
        return calendar
    }
}

/// Hours added up into one bucket.
struct BucketAggregate {
    var count = 0
    var sum = 0.0
    var min = Double.infinity
    var max = -Double.infinity
    var firstValue: Double?
    var lastValue = 0.0

    mutating func add(count: Int, sum: Double, min: Double, max: Double, first: Double, last: Double) {
        self.count += count
        self.sum += sum
        self.min = Swift.min(self.min, min)
        self.max = Swift.max(self.max, max)
        if firstValue == nil { firstValue = first }
        lastValue = last
    }

    /// The bucket's statistic; `previous` is the last value before it, if any.
    func statistic(start: Date, end: Date, previous: Double?) -> DeviceStatistic {
        DeviceStatistic(
            start: start, end: end, count: count, mean: count > 0 ? sum / Double(count) : 0, min: min, max: max, sum: sum,
            change: lastValue - (previous ?? firstValue ?? lastValue))
    }
}
