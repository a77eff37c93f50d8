import Foundation
import SADEHealth
import SADEHealthPostgres
import SADEPostgres
import SADETestSupport
import SADETestTiming
import Testing

@Suite("PostgreSQL: pools, migrations and several nodes on one database", .timeLimit(.minutes(3)), .timed)
struct PostgresPoolTests {
    @Test("a database nobody listens for is a clear 'unavailable' error within the timeout, naming where, without the password")
    func unreachable() async throws {
        let refused = try ReservedPort()
        defer { withExtendedLifetime(refused) {} }
        let location = try PostgresLocation(url: "postgres://sade:hunter2@127.0.0.1:\(refused.port)/sade?sslmode=disable")
        await #expect {
            _ = try await PostgresPool.connect(location, timeout: .seconds(3))
        } throws: { error in
            guard let failure = error as? PostgresFailure else { return false }
            return failure.isUnavailable && failure.message.contains("127.0.0.1") && !failure.message.contains("hunter2")
        }
    }

    @Test("two nodes migrating one database at once: each migration runs once and both see them all")
    func concurrentMigrations() async throws {
        let url = try await PostgresTestServer.makeDatabase()
        let migrations: [PostgresPool.Migration] = [
            .init("v1", "CREATE TABLE visit (id BIGINT PRIMARY KEY);\nINSERT INTO visit VALUES (1);"),
            .init("v2", "ALTER TABLE visit ADD COLUMN note TEXT;"),
        ]
        let first = try await PostgresPool.connect(PostgresLocation(url: url), maximumConnections: 2, timeout: .seconds(30))
        let second = try await PostgresPool.connect(PostgresLocation(url: url), maximumConnections: 2, timeout: .seconds(30))
        async let a = first.migrate("test", migrations)
        async let b = second.migrate("test", migrations)
        #expect(try await a == ["v1", "v2"])
        #expect(try await b == ["v1", "v2"])
        let rows = try await first.query("SELECT COUNT(*) FROM visit")
        #expect(try rows.first?.decode(Int.self) == 1)  // the INSERT of v1 ran once
        await first.close()
        await second.close()
    }

    @Test("two nodes saving at once: a reader following anchors sees every sample exactly once, none skipped")
    func anchoredQueriesAcrossNodes() async throws {
        let url = try await PostgresTestServer.makeDatabase()
        let nodes = [
            try await PostgresHealthStore(PostgresPool.connect(PostgresLocation(url: url), maximumConnections: 4, timeout: .seconds(30))),
            try await PostgresHealthStore(PostgresPool.connect(PostgresLocation(url: url), maximumConnections: 4, timeout: .seconds(30))),
        ]
        let batches = 25, perBatch = 40
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let writers = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, node) in nodes.enumerated() {
                    for writer in 0..<2 {
                        group.addTask {
                            for batch in 0..<batches {
                                let samples = (0..<perBatch).map { offset in
                                    HealthSample.quantity(
                                        .heartRate, 60 + Double(offset), patient: PatientID(rawValue: "p-\(index)-\(writer)"),
                                        at: start.addingTimeInterval(Double(batch * perBatch + offset)))
                                }
                                try await node.save(samples, as: .system)
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        // The reader follows the changes on the first node while both nodes write.
        let expected = nodes.count * 2 * batches * perBatch
        var seen: [UUID] = []
        var anchor = HealthAnchor.start
        while seen.count < expected {
            let changes = try await nodes[0].changes(.quantity(.heartRate), patient: nil, since: anchor, limit: 300, as: .system)
            #expect(changes.anchor >= anchor)
            seen += changes.added.map(\.id)
            anchor = changes.anchor
            if changes.added.isEmpty {
                try await writers.value  // nothing new: the writers' end (or failure) is the next news
                if try await nodes[0].changes(.quantity(.heartRate), patient: nil, since: anchor, limit: 1, as: .system).added.isEmpty { break }
            }
        }
        try await writers.value
        #expect(seen.count == expected)
        #expect(Set(seen).count == expected)
        let stored = try await nodes[1].samples(SampleQuery(.quantity(.heartRate)), as: .system)
        #expect(Set(stored.map(\.id)) == Set(seen))
        for node in nodes { await node.database.close() }
    }

    @Test("the database restarting: requests fail with an 'unavailable' error, then succeed again on the same pool")
    func databaseRestart() async throws {
        let server = try await PostgresTestServer.startOffThePool()
        let url = try await server.makeDatabase()
        let pool = try await PostgresPool.connect(PostgresLocation(url: url), maximumConnections: 2, timeout: .seconds(15), leaseTimeout: .seconds(2))
        let store = try await PostgresHealthStore(pool)
        try await store.save(.quantity(.heartRate, 70, patient: "p-1", at: Date(timeIntervalSince1970: 1_700_000_000)), as: .system)

        try await server.stop()
        await #expect {
            try await pool.query("SELECT 1")
        } throws: { error in
            (error as? PostgresFailure)?.isUnavailable == true
        }
        try await server.restart()
        // The pool makes new connections by itself, after a back-off: wait (up to 30 s)
        // for the first request that gets through, each failing fast meanwhile.
        let deadline = ContinuousClock.now + .seconds(30)
        var answered = false
        while !answered, ContinuousClock.now < deadline {
            let attempt = ContinuousClock.now
            do {
                try await pool.query("SELECT 1")
                answered = true
            } catch {
                #expect(error.isUnavailableFailure)
                #expect(ContinuousClock.now - attempt < .seconds(15))  // the lease timeout (2 s) and a loaded machine's delays, not the pool's minute
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        #expect(answered)
        let samples = try await store.samples(SampleQuery(.quantity(.heartRate)), as: .system)
        #expect(samples.count == 1)
        await pool.close()
        try await server.stop()
    }
}

extension PostgresFailure {
    fileprivate var isUnavailableFailure: Bool { isUnavailable }
}
