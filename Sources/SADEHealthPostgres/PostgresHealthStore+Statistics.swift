import Foundation
import PostgresNIO
import SADEHealth
import SADEPostgres

extension PostgresHealthStore {
    /// Aggregates of `type` for `patient` over `[start, end)` in the type's canonical
    /// unit, by HealthKit's rules (as the SQLite store computes them): minimum, maximum,
    /// average and most recent for a discrete type; for a cumulative one the sum, a
    /// sample spanning time counting in proportion to its overlap.
    ///
    /// - Throws: ``HealthError/notAuthorized(principal:access:type:patient:)``, or
    ///   ``HealthError/invalidValue(field:reason:)`` when `end` is before `start`.
    public func statistics(_ type: QuantityType, patient: PatientID, from start: Date, to end: Date, as principal: Principal) async throws(HealthError) -> HealthStatistics {
        try await aggregate(StatisticsBuckets(type, from: start, to: end), patient: patient, as: principal)[0]
    }

    /// Aggregates per bucket of `interval` seconds from `start` up to `end`; buckets
    /// without samples are included with count 0.
    ///
    /// - Throws: ``HealthError/invalidValue(field:reason:)`` for an interval that is not
    ///   positive or would make more than a million buckets, or an end before the start.
    public func statisticsCollection(
        _ type: QuantityType, patient: PatientID, from start: Date, to end: Date, interval: TimeInterval, as principal: Principal
    ) async throws(HealthError) -> [HealthStatistics] {
        try await aggregate(StatisticsBuckets(type, from: start, to: end, interval: interval), patient: patient, as: principal)
    }

    /// One `GROUP BY` for count, min, max and average with each bucket's latest value
    /// (`DISTINCT ON`-free: an array aggregate ordered by time); a cumulative type's
    /// rows are spread over the buckets by ``StatisticsBuckets/proportionalSums(_:)``.
    private func aggregate(_ buckets: StatisticsBuckets, patient: PatientID, as principal: Principal) async throws(HealthError) -> [HealthStatistics] {
        try patient.validate()
        return try await read { [database] connection in
            let policy = AccessPolicy(principal, grants: try await PostgresGrantRows.fetch(of: principal, connection, database))
            try policy.require(.read, .quantity(buckets.type), of: patient)
            if buckets.type.aggregation == .cumulative {
                let rows = try await connection.rows(
                    """
                    SELECT start, "end", value FROM sample
                    WHERE patient = \(patient.rawValue) AND type = \(buckets.type.rawValue) AND value IS NOT NULL
                    AND start < \(buckets.limit) AND ("end" > \(buckets.origin) OR ("end" = start AND start >= \(buckets.origin)))
                    """, database)
                let samples = try rows.map { row in
                    let (start, end, value) = try row.decode((Double, Double, Double).self)
                    return (start: start, end: end, value: value)
                }
                return buckets.proportionalSums(samples)
            }
            let rows = try await connection.rows(
                """
                SELECT bucket, COUNT(*), MIN(value), MAX(value), AVG(value),
                       (ARRAY_AGG(value ORDER BY start DESC, change_number DESC))[1]
                FROM (SELECT CASE WHEN \(buckets.interval ?? 0) > 0 THEN FLOOR((start - \(buckets.origin)) / \(buckets.interval ?? 1))::BIGINT
                                  ELSE 0 END AS bucket, value, start, change_number
                      FROM sample
                      WHERE patient = \(patient.rawValue) AND type = \(buckets.type.rawValue)
                        AND start >= \(buckets.origin) AND start < \(buckets.limit)) AS inside
                GROUP BY bucket
                """, database)
            var aggregates: [Int: StatisticsBuckets.Discrete] = [:]
            for row in rows {
                let (bucket, count, minimum, maximum, average, latest) = try row.decode((Int64, Int64, Double?, Double?, Double?, Double?).self)
                aggregates[Int(bucket)] = StatisticsBuckets.Discrete(
                    count: Int(count), minimum: minimum, maximum: maximum, average: average, mostRecent: latest)
            }
            return buckets.discrete(aggregates)
        }
    }
}
