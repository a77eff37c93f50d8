import Foundation
import GRDB
import SADEHealth
import SADETestSupport
import SADETestTiming
import Testing
@testable import SADEHealthSQLite

/// An anchored query across patients reads only what came after the anchor: SQLite
/// walks the rows by `change_number`, not every sample of the type (which made each of
/// the collector's cycles slower as the store grew).
@Suite("Anchored queries walk the changes after the anchor", .timeLimit(.minutes(5)), .timed)
struct SQLiteAnchoredQueryPlanTests {
    @Test("across patients: a rowid range on samples and tombstones, whatever the policy")
    func planUsesTheRowidRange() throws {
        let database = try DatabaseQueue()
        try HealthMigrations.migrator.migrate(database)
        try database.read { db in
            for policy in [AccessPolicy(.system, grants: []), AccessPolicy(.user("nurse"), grants: [])] {
                var filter = try SampleFilter(.quantity(.heartRate), patient: nil, policy: policy, byChangeNumber: true)
                filter.add("change_number > ?", 10)
                let samples = try Self.plan(db, "SELECT uuid FROM sample \(filter.sql) ORDER BY change_number LIMIT ?", filter.arguments(100))
                #expect(samples.contains("USING INTEGER PRIMARY KEY (rowid>?)"), "\(samples)")
                #expect(!samples.contains("TEMP B-TREE"), "no sort: \(samples)")
                filter.add("change_number <= ?", 20)
                let tombstones = try Self.plan(db, "SELECT uuid FROM tombstone \(filter.sql) ORDER BY change_number", filter.arguments())
                #expect(tombstones.contains("USING INTEGER PRIMARY KEY (rowid>? AND rowid<?)"), "\(tombstones)")
            }
            // Sample queries by time keep the time index.
            var byTime = try SampleFilter(.quantity(.heartRate), patient: nil, policy: AccessPolicy(.system, grants: []))
            byTime.add("start >= ?", 0.0)
            let plan = try Self.plan(db, "SELECT uuid FROM sample \(byTime.sql) ORDER BY start", byTime.arguments())
            #expect(plan.contains("sample_by_type_start"), "\(plan)")
        }
    }

    static func plan(_ db: Database, _ sql: String, _ arguments: StatementArguments) throws -> String {
        try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map { $0["detail"] as String? ?? "" }.joined(separator: "; ")
    }
}
