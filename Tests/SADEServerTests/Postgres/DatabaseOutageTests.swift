import Foundation
import HTTPTypes
import SADEHealth
import SADEHealthPostgres
import SADEPostgres
import SADETestSupport
import SADETestTiming
import Testing

/// The API over a PostgreSQL health store whose server goes down and comes back.
@Suite("API: the database restarting under the server", .timeLimit(.minutes(3)), .timed)
struct DatabaseOutageTests {
    @Test("while the database is down requests answer 503 with Retry-After at once; when it is back they work again, without restarting the node")
    func outage() async throws {
        let database = try await PostgresTestServer.startOffThePool()
        let pool = try await PostgresPool.connect(
            PostgresLocation(url: await database.makeDatabase()), maximumConnections: 4, timeout: .seconds(15), leaseTimeout: .seconds(2))
        let store = try await PostgresHealthStore(pool)
        try await store.save(Patient(id: "p-1", name: "Ana Lima", sex: .female))
        let path = "/api/v1/patients/p-1/observations?type=heartRate"
        try await ServerHarness.run(healthStore: store) { harness in
            let token = try await harness.login("admin")
            #expect(try await harness.request(.get, path, token: token).status == .ok)

            try await database.stop()
            let asked = ContinuousClock.now
            let down = try await harness.request(.get, path, token: token)
            #expect(down.status == .serviceUnavailable, "\(down.text)")
            #expect(down.errorCode == "unavailable")
            #expect(down.headers[.retryAfter] == "5")
            #expect(ContinuousClock.now - asked < .seconds(15), "answered within the lease timeout (2 s) and a loaded machine's delays, not after the pool's minute of retries")

            try await database.restart()
            // The pool reconnects after a back-off: wait (up to 30 s) for the first answer.
            let deadline = ContinuousClock.now + .seconds(30)
            var status = down.status
            while status != .ok, ContinuousClock.now < deadline {
                status = try await harness.request(.get, path, token: token).status
                if status != .ok {
                    #expect(status == .serviceUnavailable)
                    try await Task.sleep(for: .milliseconds(100))
                }
            }
            #expect(status == .ok)
        }
        await pool.close()
        try await database.stop()
    }
}
