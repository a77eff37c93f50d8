import Foundation

/// A device's hour: the key of the hourly statistics every home store keeps as events
/// arrive (Home Assistant's recorder compiles the same).
package struct HourKey: Hashable, Sendable {
    /// The device.
    package let device: DeviceID
    /// The hour's start, in milliseconds since 1970.
    package let hour: Int64

    /// The hour of `device` that holds `time` (milliseconds since 1970).
    package init(device: DeviceID, time: Int64) {
        self.device = device
        hour = time - time.modulo(3_600_000)
    }
}

/// What a batch of events adds to a device's hour; stores merge it into the stored hour.
package struct HourAggregate: Sendable {
    package var count = 0
    package var sum = 0.0
    package var min = Double.infinity
    package var max = -Double.infinity
    package var firstValue = 0.0
    package var firstTime = Int64.max
    package var lastValue = 0.0
    package var lastTime = Int64.min

    package init() {}

    /// Adds a value read at `time` (milliseconds since 1970).
    package mutating func add(_ value: Double, at time: Int64) {
        count += 1
        sum += value
        min = Swift.min(min, value)
        max = Swift.max(max, value)
        if time < firstTime { firstTime = time; firstValue = value }
        if time >= lastTime { lastTime = time; lastValue = value }
    }

    /// The hours the events touch, each with what they add.
    package static func hours(of events: [StateEvent]) -> [HourKey: HourAggregate] {
        var hours: [HourKey: HourAggregate] = [:]
        for event in events {
            let time = HomeTime.milliseconds(event.time)
            hours[HourKey(device: event.device, time: time), default: HourAggregate()].add(event.value, at: time)
        }
        return hours
    }
}

/// One stored hour of a device, as read back for statistics.
package struct StoredHour: Sendable {
    package var hour: Int64
    package var count: Int
    package var sum: Double
    package var min: Double
    package var max: Double
    package var firstValue: Double
    package var lastValue: Double

    package init(hour: Int64, count: Int, sum: Double, min: Double, max: Double, firstValue: Double, lastValue: Double) {
        self.hour = hour
        self.count = count
        self.sum = sum
        self.min = min
        self.max = max
        self.firstValue = firstValue
        self.lastValue = lastValue
    }
}

extension DeviceStatistic {
    /// Stored hours (oldest first) added up into buckets of `period` in `calendar`;
    /// `previous` is the last value before the first hour, if any (a bucket's change
    /// is counted from the value before it).
    package static func buckets(_ hours: [StoredHour], previous: Double?, period: StatisticsPeriod, calendar: Calendar) -> [DeviceStatistic] {
        var previous = previous
        var buckets: [DeviceStatistic] = []
        var current: (start: Date, aggregate: BucketAggregate)?
        func close() {
            guard let (start, aggregate) = current else { return }
            buckets.append(aggregate.statistic(start: start, end: period.next(after: start, in: calendar), previous: previous))
            previous = aggregate.lastValue
        }
        for stored in hours {
            let hour = HomeTime.date(stored.hour)
            let start = period == .hour ? hour : period.start(of: hour, in: calendar)
            if current?.start != start {
                close()
                current = (start, BucketAggregate())
            }
            current?.aggregate.add(stored)
        }
        close()
        return buckets
    }
}

/// Hours added up into one bucket.
private struct BucketAggregate {
    var count = 0
    var sum = 0.0
    var min = Double.infinity
    var max = -Double.infinity
    var firstValue: Double?
    var lastValue = 0.0

    mutating func add(_ hour: StoredHour) {
        count += hour.count
        sum += hour.sum
        min = Swift.min(min, hour.min)
        max = Swift.max(max, hour.max)
        if firstValue == nil { firstValue = hour.firstValue }
        lastValue = hour.lastValue
    }

    /// The bucket's statistic; `previous` is the last value before it, if any.
    func statistic(start: Date, end: Date, previous: Double?) -> DeviceStatistic {
        DeviceStatistic(
            start: start, end: end, count: count, mean: count > 0 ? sum / Double(count) : 0, min: min, max: max, sum: sum,
            change: lastValue - (previous ?? firstValue ?? lastValue))
    }
}

extension Int64 {
    /// The remainder that is never negative (times before 1970 fall into the right hour).
    package func modulo(_ divisor: Int64) -> Int64 {
        let remainder = self % divisor
        return remainder < 0 ? remainder + divisor : remainder
    }
}
