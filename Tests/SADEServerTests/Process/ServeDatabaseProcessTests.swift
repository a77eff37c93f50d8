import Foundation
import SADEExamples
import SADEHealth
import SADEHealthPostgres
import SADEMonitoring
import SADEPostgres
import SADETestSupport
import SADETestTiming
import Testing

/// `sade serve --database postgres://…` as a process, against a real PostgreSQL server.
@Suite("sade serve with a PostgreSQL database", .timeLimit(.minutes(6)), .timed)
struct ServeDatabaseProcessTests {
    @Test("a database nobody answers for: exit 69 with a message naming it, never the password")
    func unreachable() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("sade-serve-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let refused = try ReservedPort()
        defer { withExtendedLifetime(refused) {} }
        let result = try await SadeProcess.run([
            "serve", "--port", "0", "--data", data, "--database", "postgres://sade:hunter2@127.0.0.1:\(refused.port)/sade?sslmode=disable",
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

    @Test("""
        --demo on PostgreSQL: registry, accounts, samples and homes are in the database; a second node with a data directory of \
        its own logs in and reads them
        """)
    func samplesInPostgres() async throws {
        let url = try await PostgresTestServer.makeDatabase()
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("sade-serve-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let (server, base) = try await ServeProcessTests.serve(["--demo", "--data", data, "--database", url])
        #expect(await server.line(containing: "alerts, notifications, homes, wearable data and the issue track: PostgreSQL") != nil)
        let admin = try await ServeProcessTests.login(base, "admin")
        let accepted = try await HarnessResponse.json(
            .post, base + "/api/v1/patients/patient-05/observations", token: admin,
            [ServeProcessTests.Sample(type: "heartRate", value: 171, start: Date().formatted(.iso8601))])
        #expect(accepted.status == .created, "\(accepted.text)")
        let id = try #require((accepted.object?["ids"] as? [String])?.first.flatMap(UUID.init(uuidString:)))
        let flats = try await HarnessResponse.json(.get, base + "/api/v1/homes", token: admin)
        let names = (flats.array as? [[String: Any]])?.compactMap { $0["name"] as? String }
        #expect(names?.count == DemoHomes.flats.count, "\(flats.text)")
        server.signal(SIGTERM)
        #expect(await server.finish().status == 0)

        // Read the database directly, as another node would.
        let store = try await PostgresHealthStore(PostgresPool.connect(PostgresLocation(url: url), maximumConnections: 2, timeout: .seconds(30)))
        let registered = Set(try await store.patients(in: nil).map(\.id))
        #expect(Set(DemoHospital.patients.map(\.patient.id)).isSubset(of: registered), "\(registered)")
        let samples = try await store.samples(SampleQuery(.quantity(.heartRate), patient: "patient-05"), as: .system)
        #expect(samples.contains { $0.id == id })
        await store.database.close()

        // A second node over the same database, with a data directory of its own: the demo
        // admin (an account in PostgreSQL) logs in there and reads the sample taken by the first.
        let fresh = FileManager.default.temporaryDirectory.appendingPathComponent("sade-serve-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: fresh) }
        let (again, secondBase) = try await ServeProcessTests.serve(["--data", fresh, "--database", url])
        let token = try await ServeProcessTests.login(secondBase, "admin")
        let read = try await HarnessResponse.json(.get, secondBase + "/api/v1/patients/patient-05/observations?type=heartRate", token: token)
        #expect((read.array as? [[String: Any]])?.contains { ($0["id"] as? String).flatMap(UUID.init(uuidString:)) == id } == true)
        let flatsThere = try await HarnessResponse.json(.get, secondBase + "/api/v1/homes", token: token)
        #expect((flatsThere.array as? [[String: Any]])?.compactMap { $0["name"] as? String } == names, "the demo's flats, with their history")
        again.signal(SIGTERM)
        #expect(await again.finish().status == 0)
    }

    @Test("""
        two nodes started together with --demo on one empty database seed it once: one demo hospital, two flats, one company, \
        both nodes serving; an issue registered on either is handed on by the one office
        """)
    func demoSeededOnce() async throws {
        let url = try await PostgresTestServer.makeDatabase()
        let folders = (0..<2).map { _ in FileManager.default.temporaryDirectory.appendingPathComponent("sade-serve-\(UUID().uuidString)").path }
        defer { for folder in folders { try? FileManager.default.removeItem(atPath: folder) } }
        async let first = ServeProcessTests.serve(["--demo", "--data", folders[0], "--database", url, "--node", "seed-a"])
        async let second = ServeProcessTests.serve(["--demo", "--data", folders[1], "--database", url, "--node", "seed-b"])
        let nodes = try await [first, second]
        for (process, base) in nodes {
            let admin = try await ServeProcessTests.login(base, "admin")
            let flats = try await HarnessResponse.json(.get, base + "/api/v1/homes", token: admin)
            #expect((flats.array as? [Any])?.count == DemoHomes.flats.count, "\(flats.text)")
            let patients = try await HarnessResponse.json(.get, base + "/api/v1/patients", token: admin)
            #expect((patients.array as? [Any])?.count == DemoHospital.patients.count + DemoHomes.flats.count, "the ward's and the flats' residents")
            let company = try await HarnessResponse.json(.get, base + "/api/v1/company", token: admin)
            #expect((company.object?["employees"] as? [Any])?.count == IssueTrackScenario.employees.count, "\(company.text)")
        }
        // An urgent issue registered on each node: the office (on the node running the singletons) runs
        // both rounds, and either node tells how they went.
        var rounds: [[String: Any]] = []
        for (_, base) in nodes {
            let admin = try await ServeProcessTests.login(base, "admin")
            // 503 while no node has opened the office yet (the node running the singletons opens it once it took their lease).
            var registered = try await HarnessResponse.json(.get, base + "/health")
            let accepted = try await SeveralNodesProcessTests.eventually(within: .seconds(30)) {
                registered = try await HarnessResponse.json(.post, base + "/api/v1/issues", token: admin, IssueBody(
                    title: "Core switch down", description: "nobody can work", priority: "critical",
                    deadline: Date().addingTimeInterval(20 * 3600), service: "infrastructure", reporter: "robert"))
                return registered.status != .serviceUnavailable
            }
            #expect(accepted && registered.status == .accepted, "\(registered.text)")
            let id = try #require((registered.object?["id"] as? NSNumber)?.int64Value, "\(registered.text)")
            var round: [String: Any] = [:]
            var answered = false
            let finished = try await SeveralNodesProcessTests.eventually(within: .seconds(30)) {
                round = try await HarnessResponse.json(.get, nodes[0].1 + "/api/v1/issues/\(id)", token: admin).object?["round"] as? [String: Any] ?? [:]
                // The employee chosen is asked (people in the loop): the admin takes it for them, on the other node.
                if round["state"] as? String == "asking", !answered {
                    let other = try await ServeProcessTests.login(nodes[1].1, "admin")
                    let answer = try await HarnessResponse.json(.post, nodes[1].1 + "/api/v1/issues/\(id)/answer", token: other, ["take": true])
                    #expect(answer.status == .ok, "\(answer.text)")
                    answered = true
                }
                return round["state"] as? String == "finished"
            }
            #expect(finished, "\(round)")
            rounds.append(round)
        }
        #expect(rounds.first?["outcome"] as? String == "taken" && rounds.first?["takenBy"] as? String == "tony", "\(rounds)")
        // Tony busy with the first, Maria with the seeded one, Pedro out: everyone offering it is e-mailed.
        #expect(rounds.last?["outcome"] as? String == "emailed", "\(rounds)")
        for (process, _) in nodes {
            process.signal(SIGTERM)
            #expect(await process.finish().status == 0)
        }
    }
}
