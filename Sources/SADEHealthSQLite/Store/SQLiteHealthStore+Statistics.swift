import Foundation
import GRDB
import SADEHealth

extension SQLiteHealthStore {
    /// Aggregates of `type` for `patient` over `[start, end)`, given in the type's
    /// canonical unit, by HealthKit's rules: for a discrete type the minimum, maximum,
    /// average and most recent of the samples that start in the interval (computed in
    /// SQL); for a cumulative type the sum, where a sample spanning a time interval
    /// counts in proportion to its overlap with `[start, end)` (1,000 steps over two
    /// hours put 500 in each hour). With no samples the count is 0 and the values `nil`.
    ///
    /// - Throws: ``HealthError/notAuthorized(principal:access:type:patient:)``, or
    ///   ``HealthError/invalidValue(field:reason:)`` when `end` is before `start`.
    public func statistics(_ type: QuantityType, patient: PatientID, from start: Date, to end: Date, as principal: Principal) async throws(HealthError) -> HealthStatistics {
        guard end >= start else { throw .invalidValue(field: "end", reason: "ends before it starts") }
        let buckets = try await aggregate(type, patient: patient, from: start, to: end, interval: nil, bucketCount: 1, as: principal)
        return buckets[0]
    }

    /// Aggregates per bucket of `interval` seconds from `start` up to `end` (the last
    /// bucket may be shorter), as ``statistics(_:patient:from:to:as:)`` computes them
    /// for one; buckets without samples are included with count 0.
    ///
    /// - Throws: ``HealthError/invalidValue(field:reason:)`` for an interval that is not
    ///   positive or would make more than a million buckets, or an end before the start.
    public func statisticsCollection(
        _ type: QuantityType, patient: PatientID, from start: Date, to end: Date, interval: TimeInterval, as principal: Principal
    ) async throws(HealthError) -> [HealthStatistics] {
        guard interval > 0, interval.isFinite else { throw .invalidValue(field: "interval", reason: "must be a positive number of seconds") }
        guard end >= start else { throw .invalidValue(field: "end", reason: "ends before it starts") }
        // The count may be huge or infinite (a tiny interval, an endless range), so it is
        // compared as a Double and only converted once it is known to fit.
        let count = (end.timeIntervalSince(start) / interval).rounded(.up)
        guard count.isFinite, count <= Self.maximumBucketCount else {
            throw .invalidValue(
                field: "interval",
                reason: "\(interval) s over \(end.timeIntervalSince(start)) s makes more than \(Int(Self.maximumBucketCount)) buckets")
        }
        return try await aggregate(type, patient: patient, from: start, to: end, interval: interval, bucketCount: Int(count), as: principal)
    }

    /// The most buckets ``statisticsCollection(_:patient:from:to:interval:as:)`` makes.
    static let maximumBucketCount: Double = 1_000_000

    /// The buckets, in SQL: one `GROUP BY` for count, min, max, average and sum, and for
    /// a discrete type a window query for each bucket's latest sample. A `nil`
    /// interval is one bucket spanning `[start, end)`.
    private func aggregate(
        _ type: QuantityType, patient: PatientID, from start: Date, to end: Date, interval: TimeInterval?, bucketCount: Int,
        as principal: Principal
    ) async throws(HealthError) -> [HealthStatistics] {
        try patient.validate()
        return try await read { db in
            let policy = AccessPolicy(principal, grants: try AccessGrantRows.fetch(of: principal, db))
            try policy.require(.read, .quantity(type), of: patient)
            if type.aggregation == .cumulative {
                return try Self.proportionalSums(type, patient: patient, from: start, to: end, interval: interval, bucketCount: bucketCount, db)
            }
            let origin = start.timeIntervalSinceReferenceDate
            let bucket = interval == nil ? "0" : "CAST((start - ?1) / ?2 AS INTEGER)"
            let filter = #"patient = ?3 AND type = ?4 AND start >= ?1 AND start < ?5"#
            let arguments: StatementArguments = [origin, interval ?? 1, patient.rawValue, type.rawValue, end.timeIntervalSinceReferenceDate]
            var sums: [Int: Row] = [:]
            let rows = try Row.fetchCursor(
                db.cachedStatement(
                    sql: "SELECT \(bucket) AS bucket, COUNT(*), MIN(value), MAX(value), AVG(value), SUM(value) FROM sample WHERE \(filter) GROUP BY bucket"),
                arguments: arguments)
            while let row = try rows.next() {
                sums[try row.decode(atIndex: 0)] = row.copy()
            }
            var latest: [Int: Double] = [:]
            if type.aggregation == .discrete, !sums.isEmpty {
                let rows = try Row.fetchCursor(
                    db.cachedStatement(
                        sql: """
                            SELECT bucket, value FROM (
                                SELECT \(bucket) AS bucket, value,
                                       ROW_NUMBER() OVER (PARTITION BY \(bucket) ORDER BY start DESC, change_number DESC) AS rank
                                FROM sample WHERE \(filter))
                            WHERE rank = 1
                            """),
                    arguments: arguments)
                while let row = try rows.next() {
                    latest[try row.decode(atIndex: 0)] = try row.decode(atIndex: 1)
                }
            }
            let unit = type.canonicalUnit
            return try (0..<bucketCount).map { index in
                let bucketStart = interval.map { start.addingTimeInterval(Double(index) * $0) } ?? start
                let bucketEnd = interval.map { min(start.addingTimeInterval(Double(index + 1) * $0), end) } ?? end
                var statistics = HealthStatistics(start: bucketStart, end: bucketEnd, count: 0)
                guard let row = sums[index] else { return statistics }
                statistics.count = try row.decode(atIndex: 1)
                func quantity(_ column: Int) throws -> HealthQuantity? {
                    try row.decode(Double?.self, atIndex: column).map { HealthQuantity($0, unit) }
                }
                switch type.aggregation {
                case .discrete:
                    statistics.minimum = try quantity(2)
                    statistics.maximum = try quantity(3)
                    statistics.average = try quantity(4)
                    statistics.mostRecent = latest[index].map { HealthQuantity($0, unit) }
                case .cumulative:
                    statistics.sum = try quantity(5)
                }
                return statistics
            }
        }
    }

    /// Cumulative sums per bucket with each sample spread over its own interval: the
    /// part of the value that falls in a bucket is proportional to the time the sample
    /// overlaps it; a sample at an instant counts wholly in the bucket it falls in.
    /// `count` is the number of samples that contributed to the bucket.
    private static func proportionalSums(
        _ type: QuantityType, patient: PatientID, from start: Date, to end: Date, interval: TimeInterval?, bucketCount: Int,
        _ db: Database
    ) throws -> [HealthStatistics] {
        guard bucketCount > 0 else { return [] }  // an empty range has no bucket
        let origin = start.timeIntervalSinceReferenceDate, limit = end.timeIntervalSinceReferenceDate
        let width = interval ?? max(limit - origin, .leastNonzeroMagnitude)
        func bounds(_ index: Int) -> (Double, Double) {
            (origin + Double(index) * width, interval == nil ? limit : min(origin + Double(index + 1) * width, limit))
        }
        func bucket(of time: Double) -> Int { min(bucketCount - 1, max(0, Int(((time - origin) / width).rounded(.down)))) }
        var sums = [Double](repeating: 0, count: bucketCount), counts = [Int](repeating: 0, count: bucketCount)
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: """
                SELECT start, "end", value FROM sample WHERE patient = ?1 AND type = ?2 AND value IS NOT NULL
                AND start < ?4 AND ("end" > ?3 OR ("end" = start AND start >= ?3))
                """),
            arguments: [patient.rawValue, type.rawValue, origin, limit])
        while let row = try rows.next() {
            let sampleStart: Double = row[0], sampleEnd: Double = row[1], value: Double = row[2]
            guard sampleEnd > sampleStart else {
                let index = bucket(of: sampleStart)
                sums[index] += value
                counts[index] += 1
                continue
            }
            for index in bucket(of: max(sampleStart, origin))...bucket(of: min(sampleEnd, limit)) {
                let (bucketStart, bucketEnd) = bounds(index)
                let overlap = min(sampleEnd, bucketEnd) - max(sampleStart, bucketStart)
                guard overlap > 0 else { continue }
                sums[index] += value * overlap / (sampleEnd - sampleStart)
                counts[index] += 1
            }
        }
        let unit = type.canonicalUnit
        return (0..<bucketCount).map { index in
            let (bucketStart, bucketEnd) = bounds(index)
            var statistics = HealthStatistics(
                start: Date(timeIntervalSinceReferenceDate: bucketStart), end: Date(timeIntervalSinceReferenceDate: bucketEnd),
                count: counts[index])
            if counts[index] > 0 { statistics.sum = HealthQuantity(sums[index], unit) }
            return statistics
        }
    }
}
