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
        try await aggregate(StatisticsBuckets(type, from: start, to: end), patient: patient, as: principal)[0]
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
        try await aggregate(StatisticsBuckets(type, from: start, to: end, interval: interval), patient: patient, as: principal)
    }

    /// The buckets, in SQL: one `GROUP BY` for count, min, max and average, and a
    /// window query for each bucket's latest sample; a cumulative type's rows are
    /// spread over the buckets by ``StatisticsBuckets/proportionalSums(_:)``.
    private func aggregate(_ buckets: StatisticsBuckets, patient: PatientID, as principal: Principal) async throws(HealthError) -> [HealthStatistics] {
        try patient.validate()
        return try await read { db in
            let policy = AccessPolicy(principal, grants: try AccessGrantRows.fetch(of: principal, db))
            try policy.require(.read, .quantity(buckets.type), of: patient)
            if buckets.type.aggregation == .cumulative {
                return try Self.proportionalSums(buckets, patient: patient, db)
            }
            let bucket = buckets.interval == nil ? "0" : "CAST((start - ?1) / ?2 AS INTEGER)"
            let filter = #"patient = ?3 AND type = ?4 AND start >= ?1 AND start < ?5"#
            let arguments: StatementArguments = [buckets.origin, buckets.interval ?? 1, patient.rawValue, buckets.type.rawValue, buckets.limit]
            var aggregates: [Int: StatisticsBuckets.Discrete] = [:]
            let rows = try Row.fetchCursor(
                db.cachedStatement(
                    sql: "SELECT \(bucket) AS bucket, COUNT(*), MIN(value), MAX(value), AVG(value) FROM sample WHERE \(filter) GROUP BY bucket"),
                arguments: arguments)
            while let row = try rows.next() {
                aggregates[try row.decode(atIndex: 0)] = StatisticsBuckets.Discrete(
                    count: try row.decode(atIndex: 1), minimum: try row.decode(atIndex: 2), maximum: try row.decode(atIndex: 3),
                    average: try row.decode(atIndex: 4))
            }
            if !aggregates.isEmpty {
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
                    aggregates[try row.decode(atIndex: 0)]?.mostRecent = try row.decode(atIndex: 1)
                }
            }
            return buckets.discrete(aggregates)
        }
    }

    /// The samples of a cumulative type that overlap the range, spread over the buckets.
    private static func proportionalSums(_ buckets: StatisticsBuckets, patient: PatientID, _ db: Database) throws -> [HealthStatistics] {
        var samples: [(start: Double, end: Double, value: Double)] = []
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: """
                SELECT start, "end", value FROM sample WHERE patient = ?1 AND type = ?2 AND value IS NOT NULL
                AND start < ?4 AND ("end" > ?3 OR ("end" = start AND start >= ?3))
                """),
            arguments: [patient.rawValue, buckets.type.rawValue, buckets.origin, buckets.limit])
        while let row = try rows.next() {
            samples.append((row[0], row[1], row[2]))
        }
        return buckets.proportionalSums(samples)
    }
}
