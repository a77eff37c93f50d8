import Foundation
import SADEHealth
import SADEHealthPostgres
import SADEMonitoring
import SADEPostgres
import SADETestSupport
import Testing

/// `sade serve --database postgres://…` as a process, against a real PostgreSQL server.
@Suite("sade serve with a PostgreSQL database", .timeLimit(.minutes(3)))
struct ServeDatabaseProcessTests {
    @Test("a database nobody answers for: exit 69 with a message naming it, never the password")
    func unreachable() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("sade-serve-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let result = try await SadeProcess.run([
            "serve", "--port", "0", "--data", data, "--database", "postgres://sade:hunter2@127.0.0.1:\(try closedPort())/sade?sslmode=disable",
        ])
        #expect(result.status == 69)
        #expect(result.error.contains("the database is unavailable") && result.error.contains("127.0.0.1"), "\(result.error)")
        #expect(!result.error.contains("hunter2") && !result.output.contains("hunter2"))
    }

    @Test("a URL that is not postgres:// is a usage error (exit 64) before anything starts")
    func malformedURL() async throws {
        let result = try await SadeProcess.run(["serve", "--port", "0", "--database", "mysql://root:hunter2@db/sade"])
        #expect(result.status == 64)
        #expect(result.error.contains("invalid database URL") && !result.error.contains("hunter2"), "\(result.error)")
    }

    @Test("--demo on PostgreSQL: the registry and every accepted sample are in the database, and a restart finds them there")
    func samplesInPostgres() async throws {
        let url = try await PostgresTestServer.makeDatabase()
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("sade-serve-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let (server, base) = try await ServeProcessTests.serve(["--demo", "--data", data, "--database", url])
        #expect(await server.line(containing: "health store: PostgreSQL") != nil)
        let admin = try await ServeProcessTests.login(base, "admin")
        let accepted = try await HarnessResponse.json(
            .post, base + "/api/v1/patients/patient-05/observations", token: admin,
            [ServeProcessTests.Sample(type: "heartRate", value: 171, start: Date().formatted(.iso8601))])
        #expect(accepted.status == .created, "\(accepted.text)")
        let id = try #require((accepted.object?["ids"] as? [String])?.first.flatMap(UUID.init(uuidString:)))
        server.signal(SIGTERM)
        #expect(await server.finish().status == 0)

        // Read the database directly, as another node would.
        let store = try await PostgresHealthStore(PostgresPool.connect(PostgresLocation(url: url), maximumConnections: 2))
        let registered = Set(try await store.patients(in: nil).map(\.id))
        #expect(Set(DemoHospital.patients.map(\.patient.id)).isSubset(of: registered), "\(registered)")
        let samples = try await store.samples(SampleQuery(.quantity(.heartRate), patient: "patient-05"), as: .system)
        #expect(samples.contains { $0.id == id })
        await store.database.close()

        // Over the same database with a fresh data directory: the samples are there.
        let fresh = FileManager.default.temporaryDirectory.appendingPathComponent("sade-serve-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: fresh) }
        let (again, secondBase) = try await ServeProcessTests.serve(["--data", fresh, "--database", url])
        let demoAdmin = try await HarnessResponse.json(.post, secondBase + "/api/v1/auth/login", ["username": "admin", "password": "sade-demo"])
        // Accounts are still in the data directory (not yet in PostgreSQL): the fresh one has none.
        #expect(demoAdmin.status == .unauthorized)
        again.signal(SIGTERM)
        #expect(await again.finish().status == 0)
    }
}
