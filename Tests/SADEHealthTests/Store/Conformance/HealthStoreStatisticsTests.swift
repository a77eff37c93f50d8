import Foundation
import SADEHealth
import SADEHealthSQLite
import SADETestSupport
import SADETestTiming
import Testing

@Suite("Health store (SQLite and PostgreSQL): statistics", .timeLimit(.minutes(5)), .timed)
struct HealthStoreStatisticsTests {
    @Test("a discrete type has minimum, maximum, average and most recent, and no sum", arguments: StoreKind.allCases)
    func discrete(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            try await store.save([pulse(80, at: 0), pulse(60, at: 20), pulse(70, at: 10), pulse(100, at: 60), pulse(50, "p-2", at: 5)], as: .system)
            let stats = try await store.statistics(.heartRate, patient: "p-1", from: at(0), to: at(60), as: .system)
            #expect(stats.count == 3)
            #expect(stats.minimum == HealthQuantity(60, .countPerMinute))
            #expect(stats.maximum == HealthQuantity(80, .countPerMinute))
            #expect(stats.average == HealthQuantity(70, .countPerMinute))
            #expect(stats.mostRecent == HealthQuantity(60, .countPerMinute))
            #expect(stats.sum == nil)
            #expect(stats.start == at(0) && stats.end == at(60))
        }
    }

    @Test("statistics are in the canonical unit whatever unit the samples were saved in", arguments: StoreKind.backends)
    func canonicalUnit(kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        try await store.save(
            [
                .quantity(.bodyTemperature, 98.6, .degreeFahrenheit, patient: "p-1", at: at(0)),
                .quantity(.bodyTemperature, 39, .degreeCelsius, patient: "p-1", at: at(1)),
            ], as: .system)
        let stats = try await store.statistics(.bodyTemperature, patient: "p-1", from: at(0), to: at(2), as: .system)
        #expect(stats.maximum == HealthQuantity(39, .degreeCelsius))
        let minimum = try #require(stats.minimum)
        #expect(minimum.unit == .degreeCelsius && abs(minimum.value - 37) < 1e-9)
    }

    @Test("a cumulative type has a sum, and no minimum, maximum or average", arguments: StoreKind.backends)
    func cumulative(kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        try await store.save((0..<6).map { .quantity(.stepCount, Double(100 * ($0 + 1)), patient: "p-1", at: at(Double($0) * 10)) }, as: .system)
        let stats = try await store.statistics(.stepCount, patient: "p-1", from: at(0), to: at(30), as: .system)
        #expect(stats.count == 3)
        #expect(stats.sum == HealthQuantity(600, .count))
        #expect(stats.minimum == nil && stats.maximum == nil && stats.average == nil && stats.mostRecent == nil)
    }

    @Test("without samples the count is 0 and there are no values", arguments: StoreKind.backends)
    func empty(kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        let stats = try await store.statistics(.heartRate, patient: "p-1", from: at(0), to: at(60), as: .system)
        #expect(stats == HealthStatistics(start: at(0), end: at(60), count: 0))
    }

    @Test("a collection has one bucket per interval, empty buckets with count 0", arguments: StoreKind.allCases)
    func discreteBuckets(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            try await store.save([pulse(60, at: 0), pulse(80, at: 59.9), pulse(90, at: 125), pulse(99, at: 240)], as: .system)
            let buckets = try await store.statisticsCollection(.heartRate, patient: "p-1", from: at(0), to: at(240), interval: 3600, as: .system)
            #expect(buckets.map(\.count) == [2, 0, 1, 0])
            #expect(buckets.map(\.start) == [at(0), at(60), at(120), at(180)])
            #expect(buckets.map(\.end) == [at(60), at(120), at(180), at(240)])
            #expect(buckets[0].average == HealthQuantity(70, .countPerMinute))
            #expect(buckets[0].mostRecent == HealthQuantity(80, .countPerMinute))
            #expect(buckets[1].average == nil && buckets[1].mostRecent == nil)
            #expect(buckets[2].minimum == HealthQuantity(90, .countPerMinute))
        }
    }

    @Test("cumulative buckets sum their samples; the last bucket may be shorter", arguments: StoreKind.backends)
    func cumulativeBuckets(kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        try await store.save(
            [5, 25, 26, 70, 100].map { HealthSample.quantity(.stepCount, 10, patient: "p-1", at: at($0)) }, as: .system)
        let buckets = try await store.statisticsCollection(.stepCount, patient: "p-1", from: at(0), to: at(90), interval: 1800, as: .system)
        #expect(buckets.map { $0.sum?.value } == [30, nil, 10])
        #expect(buckets.last?.end == at(90))
    }

    @Test("a cumulative sample over a time interval is shared between buckets in proportion, as in HealthKit", arguments: StoreKind.backends)
    func cumulativeSamplesAreSplit(kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        try await store.save([
            HealthSample.quantity(.stepCount, 1000, patient: "p-1", at: at(0), end: at(120)),  // two hours
            HealthSample.quantity(.stepCount, 300, patient: "p-1", at: at(150), end: at(180)),  // within the last hour
            HealthSample.quantity(.stepCount, 40, patient: "p-1", at: at(60)),  // an instant, on a bucket boundary
        ], as: .system)
        let buckets = try await store.statisticsCollection(.stepCount, patient: "p-1", from: at(0), to: at(180), interval: 3600, as: .system)
        #expect(buckets.map { $0.sum?.value } == [500, 540, 300])
        #expect(buckets.map(\.count) == [1, 2, 1])
        let middle = try await store.statistics(.stepCount, patient: "p-1", from: at(30), to: at(90), as: .system)
        #expect(middle.sum?.value == 540, "half of the two-hour sample and the instant")
        let none = try await store.statistics(.stepCount, patient: "p-1", from: at(200), to: at(300), as: .system)
        #expect(none.count == 0 && none.sum == nil)
        let empty = try await store.statisticsCollection(.stepCount, patient: "p-1", from: at(60), to: at(60), interval: 3600, as: .system)
        #expect(empty.isEmpty, "an empty range has no bucket (a sample spanning it used to trap)")
    }

    @Test("an interval that is not positive, or too fine, and an end before the start are invalid", arguments: StoreKind.backends)
    func invalidIntervals(kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        for interval in [0, -60, .nan] as [TimeInterval] {
            let error = await healthError {
                _ = try await store.statisticsCollection(.heartRate, patient: "p-1", from: at(0), to: at(60), interval: interval, as: .system)
            }
            #expect(error == .invalidValue(field: "interval", reason: "must be a positive number of seconds"))
        }
        let tooFine = await healthError {
            _ = try await store.statisticsCollection(.heartRate, patient: "p-1", from: at(0), to: at(60 * 24 * 365), interval: 1, as: .system)
        }
        guard case .invalidValue(field: "interval", _) = tooFine else { Issue.record("a year in seconds was accepted"); return }
        let backwards = await healthError { _ = try await store.statistics(.heartRate, patient: "p-1", from: at(10), to: at(0), as: .system) }
        #expect(backwards == .invalidValue(field: "end", reason: "ends before it starts"))
    }

    /// The bucket count was converted with `Int(_:)` to write this very error, which
    /// traps for a count beyond `Int.max` or an infinite one.
    /// The end in seconds since 1970, not as a date: describing an infinite `Date` traps.
    @Test("a bucket count beyond any integer, or infinite, is an invalid interval, not a crash", arguments: [
        (1e-12, 1e9), (1e-300, 1e9), (60, 1e12), (3600, .infinity),
    ] as [(TimeInterval, Double)])
    func hugeBucketCounts(interval: TimeInterval, endSeconds: Double) async throws {
        let end = Date(timeIntervalSince1970: endSeconds)
        let store = try SQLiteHealthStore.inMemory()
        let error = await healthError {
            _ = try await store.statisticsCollection(.heartRate, patient: "p-1", from: Date(timeIntervalSince1970: 0), to: end, interval: interval, as: .system)
        }
        guard case .invalidValue(field: "interval", let reason)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(reason.contains("more than 1000000 buckets"))
    }
}
