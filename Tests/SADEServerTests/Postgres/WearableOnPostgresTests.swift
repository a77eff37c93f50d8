import Foundation
import SADEHealth
import SADEHealthPostgres
import SADEMonitoring
import SADEPostgres
import SADETestSupport
import SADETestTiming
import Testing

/// The wearable API when accounts live in PostgreSQL and data items in the node's SQLite:
/// nothing in SQLite may point at the accounts.
@Suite("Wearable API with accounts in PostgreSQL", .timeLimit(.minutes(3)), .timed)
struct WearableOnPostgresTests {
    @Test("a user registered in PostgreSQL sends data items; they list by project and go with the account")
    func dataItems() async throws {
        let pool = try await PostgresPool.connect(PostgresLocation(url: PostgresTestServer.makeDatabase()), maximumConnections: 4, timeout: .seconds(30))
        let store = try await PostgresHealthStore(pool)
        let records = try await PostgresAccountRecords(pool)
        try await ServerHarness.run(healthStore: store, accountRecords: records) { harness in
            let ana = try await harness.wearableUser("ana")
            let sent = try await harness.postDataItem(WearableClientPayloads.esp32(bpm: 81, temperature: 36.8), token: ana)
            #expect(sent.status == .created, "\(sent.text)")
            let admin = try await harness.login("admin")
            let project = try await harness.request(.get, "/Api/DataItem/getProjectData/0", token: admin)
            #expect(project.status == .ok)
            #expect((project.array as? [[String: Any]])?.count == 1, "\(project.text)")

            let account = try #require(try await harness.system.accounts.account(username: "ana"))
            #expect(try await harness.request(.delete, "/api/v1/users/\(account.id)", token: admin).status == .noContent)
            #expect(try await harness.system.wearable.store.items(ownedBy: account.id).isEmpty)
        }
        await pool.close()
    }
}
