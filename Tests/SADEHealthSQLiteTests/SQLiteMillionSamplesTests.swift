import Foundation
import SADEHealth
@testable import SADEHealthSQLite
import SADETestSupport
import SADETestTiming
import Testing

@Suite("SQLite store: a million samples", .timeLimit(.minutes(5)), .timed)
struct SQLiteMillionSamplesTests {
    @Test("1,000,000 quantity samples saved in batches of 10,000 are all there and can be queried")
    func millionSamples() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try SQLiteHealthStore(directory: directory.path)
        let patients = (0..<10).map { PatientID("p-\($0)") }
        let clock = ContinuousClock()

        // 100,000 per patient, one a minute: p-k's n-th sample is at minute n with value 40 + n % 100.
        var saving = Duration.zero
        let insert = try await clock.measure {
            for batch in 0..<100 {
                var samples: [HealthSample] = []
                samples.reserveCapacity(10_000)
                for index in (batch * 10_000)..<((batch + 1) * 10_000) {
                    let minute = index / 10
                    samples.append(.quantity(.heartRate, Double(40 + minute % 100), patient: patients[index % 10], at: at(Double(minute))))
                }
                saving += try await clock.measure { try await store.save(samples, as: .system) }
            }
        }
        print("1,000,000 samples: saved in \(saving) (100 transactions of 10,000; \(insert) with making the samples)")
        #expect(try await store.rowCount("sample") == 1_000_000)

        var oneDay: [HealthSample] = []
        let dayQuery = try await clock.measure {
            oneDay = try await store.samples(SampleQuery(.quantity(.heartRate), patient: "p-3", from: at(1440 * 30), until: at(1440 * 31)), as: .system)
        }
        print("1,000,000 samples: one patient's day (\(oneDay.count) samples) read in \(dayQuery)")
        #expect(oneDay.count == 1440)
        #expect(oneDay.first?.start == at(1440 * 30))
        #expect(oneDay.first?.quantity?.value == Double(40 + (1440 * 30) % 100))

        var latest: [HealthSample] = []
        let latestQuery = try await clock.measure {
            latest = try await store.samples(SampleQuery(.quantity(.heartRate), patient: "p-7", limit: 1, order: .newestFirst), as: .system)
        }
        print("1,000,000 samples: a patient's latest sample read in \(latestQuery)")
        #expect(latest.first?.start == at(99_999))

        var everything: [HealthSample] = []
        let fullQuery = try await clock.measure {
            everything = try await store.samples(SampleQuery(.quantity(.heartRate), patient: "p-0"), as: .system)
        }
        print("1,000,000 samples: one patient's 100,000 samples read in \(fullQuery)")
        #expect(everything.count == 100_000)
        #expect(zip(everything, everything.dropFirst()).allSatisfy { $0.start < $1.start })

        var stats: HealthStatistics?
        let statsQuery = try await clock.measure {
            stats = try await store.statistics(.heartRate, patient: "p-5", from: at(0), to: at(100_000), as: .system)
        }
        print("1,000,000 samples: statistics over one patient's 100,000 samples in \(statsQuery)")
        #expect(stats?.count == 100_000)
        #expect(stats?.minimum?.value == 40 && stats?.maximum?.value == 139)
        #expect(stats?.average?.value == 89.5)

        var buckets: [HealthStatistics] = []
        let bucketQuery = try await clock.measure {
            buckets = try await store.statisticsCollection(.heartRate, patient: "p-5", from: at(0), to: at(100_000), interval: 86_400, as: .system)
        }
        print("1,000,000 samples: \(buckets.count) daily buckets of one patient in \(bucketQuery)")
        #expect(buckets.count == 70)
        #expect(buckets.dropLast().allSatisfy { $0.count == 1440 })
        #expect(buckets.reduce(0) { $0 + $1.count } == 100_000)

        var changes: AnchoredChanges?
        let anchoredQuery = try await clock.measure {
            changes = try await store.changes(.quantity(.heartRate), patient: nil, since: HealthAnchor(rawValue: 999_000), limit: nil, as: .system)
        }
        print("1,000,000 samples: the last 1,000 changes read in \(anchoredQuery)")
        #expect(changes?.added.count == 1000)
    }
}
