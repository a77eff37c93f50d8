import Foundation
import GRDB
import SADEHealth

extension SQLiteHealthStore {
    /// Aggregates of `type` for `patient` over the samples that start in
    /// `[start, end)`, computed in SQL and given in the type's canonical unit: minimum,
    /// maximum, average and most recent for a discrete type, the sum for a cumulative
    /// one (HealthKit's rules). With no samples the count is 0 and the values `nil`.
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
}
