import Foundation

/// The buckets of a statistics query and the arithmetic every backend shares: where
/// each bucket starts and ends, which bucket a time falls in, and HealthKit's rules
/// for turning a bucket's samples into ``HealthStatistics``. The backends only fetch
/// the rows.
package struct StatisticsBuckets: Sendable {
    /// The quantity type aggregated.
    package let type: QuantityType
    /// The first bucket's start, in seconds since the reference date.
    package let origin: Double
    /// The end of the last bucket, in seconds since the reference date.
    package let limit: Double
    /// The width of a bucket in seconds; `nil` for one bucket spanning the range.
    package let interval: TimeInterval?
    /// How many buckets.
    package let count: Int

    /// The most buckets a collection makes.
    package static let maximumCount: Double = 1_000_000

    /// One bucket over `[start, end)`.
    ///
    /// - Throws: ``HealthError/invalidValue(field:reason:)`` when `end` is before `start`.
    package init(_ type: QuantityType, from start: Date, to end: Date) throws(HealthError) {
        guard end >= start else { throw .invalidValue(field: "end", reason: "ends before it starts") }
        self.init(type, origin: start.timeIntervalSinceReferenceDate, limit: end.timeIntervalSinceReferenceDate, interval: nil, count: 1)
    }

    /// Buckets of `interval` seconds from `start` up to `end` (the last may be shorter).
    ///
    /// - Throws: ``HealthError/invalidValue(field:reason:)`` for an interval that is not
    ///   positive or would make more than a million buckets, or an end before the start.
    package init(_ type: QuantityType, from start: Date, to end: Date, interval: TimeInterval) throws(HealthError) {
        guard interval > 0, interval.isFinite else { throw .invalidValue(field: "interval", reason: "must be a positive number of seconds") }
        guard end >= start else { throw .invalidValue(field: "end", reason: "ends before it starts") }
        // The count may be huge or infinite (a tiny interval, an endless range), so it is
        // compared as a Double and only converted once it is known to fit.
        let count = (end.timeIntervalSince(start) / interval).rounded(.up)
        guard count.isFinite, count <= Self.maximumCount else {
            throw .invalidValue(
                field: "interval",
                reason: "\(interval) s over \(end.timeIntervalSince(start)) s makes more than \(Int(Self.maximumCount)) buckets")
        }
        self.init(type, origin: start.timeIntervalSinceReferenceDate, limit: end.timeIntervalSinceReferenceDate, interval: interval, count: Int(count))
    }

    private init(_ type: QuantityType, origin: Double, limit: Double, interval: TimeInterval?, count: Int) {
        self.type = type
        self.origin = origin
        self.limit = limit
        self.interval = interval
        self.count = count
    }

    /// The width used to place a time in a bucket.
    private var width: Double { interval ?? max(limit - origin, .leastNonzeroMagnitude) }

    /// Where bucket `index` starts and ends.
    package func bounds(_ index: Int) -> (start: Double, end: Double) {
        guard let interval else { return (origin, limit) }
        return (origin + Double(index) * interval, min(origin + Double(index + 1) * interval, limit))
    }

    /// The bucket `time` falls in, clamped to the first and last.
    package func bucket(of time: Double) -> Int {
        min(count - 1, max(0, Int(((time - origin) / width).rounded(.down))))
    }

    /// An empty bucket.
    private func empty(_ index: Int, count: Int = 0) -> HealthStatistics {
        let (start, end) = bounds(index)
        return HealthStatistics(start: Date(timeIntervalSinceReferenceDate: start), end: Date(timeIntervalSinceReferenceDate: end), count: count)
    }

    /// The aggregates of one bucket of a discrete type, in the canonical unit.
    package struct Discrete: Sendable {
        package var count: Int
        package var minimum: Double?
        package var maximum: Double?
        package var average: Double?
        package var mostRecent: Double?

        package init(count: Int, minimum: Double?, maximum: Double?, average: Double?, mostRecent: Double? = nil) {
            self.count = count
            self.minimum = minimum
            self.maximum = maximum
            self.average = average
            self.mostRecent = mostRecent
        }
    }

    /// The statistics of a discrete type from each bucket's aggregates (by bucket index);
    /// buckets without samples have count 0.
    package func discrete(_ aggregates: [Int: Discrete]) -> [HealthStatistics] {
        let unit = type.canonicalUnit
        return (0..<count).map { index in
            var statistics = empty(index)
            guard let bucket = aggregates[index] else { return statistics }
            statistics.count = bucket.count
            statistics.minimum = bucket.minimum.map { HealthQuantity($0, unit) }
            statistics.maximum = bucket.maximum.map { HealthQuantity($0, unit) }
            statistics.average = bucket.average.map { HealthQuantity($0, unit) }
            statistics.mostRecent = bucket.mostRecent.map { HealthQuantity($0, unit) }
            return statistics
        }
    }

    /// Cumulative sums per bucket with each sample spread over its own interval: the
    /// part of the value that falls in a bucket is proportional to the time the sample
    /// overlaps it; a sample at an instant counts wholly in the bucket it falls in.
    /// `count` is the number of samples that contributed to the bucket.
    ///
    /// - Parameter samples: start, end (seconds since the reference date) and value
    ///   of each sample that overlaps the range.
    package func proportionalSums(_ samples: some Sequence<(start: Double, end: Double, value: Double)>) -> [HealthStatistics] {
        guard count > 0 else { return [] }  // an empty range has no bucket
        var sums = [Double](repeating: 0, count: count), counts = [Int](repeating: 0, count: count)
        for sample in samples {
            guard sample.end > sample.start else {
                let index = bucket(of: sample.start)
                sums[index] += sample.value
                counts[index] += 1
                continue
            }
            for index in bucket(of: max(sample.start, origin))...bucket(of: min(sample.end, limit)) {
                let (bucketStart, bucketEnd) = bounds(index)
                let overlap = min(sample.end, bucketEnd) - max(sample.start, bucketStart)
                guard overlap > 0 else { continue }
                sums[index] += sample.value * overlap / (sample.end - sample.start)
                counts[index] += 1
            }
        }
        let unit = type.canonicalUnit
        return (0..<count).map { index in
            var statistics = empty(index, count: counts[index])
            if counts[index] > 0 { statistics.sum = HealthQuantity(sums[index], unit) }
            return statistics
        }
    }
}
