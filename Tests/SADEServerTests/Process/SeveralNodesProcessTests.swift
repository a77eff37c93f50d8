import Foundation
import PostgresNIO
import SADEPostgres
import SADETestSupport
import SADETestTiming
import Testing

/// Two `sade serve` processes on one PostgreSQL database, and one of them killed.
@Suite("Several sade serve nodes on one database", .timeLimit(.minutes(6)), .timed)
struct SeveralNodesProcessTests {
    static let patients = (1...4).map { String(format: "kill-%02d", $0) }

    /// Starts a node on `url` with a data directory of its own and a 5 s evaluation lease
    /// (renewed every 1.7 s; room for a loaded machine's slow renewals).
    static func node(_ name: String, on url: String, demo: Bool = false) async throws -> (SadeProcess, String) {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("sade-\(name)-\(UUID().uuidString)").path
        return try await ServeProcessTests.serve(
            (demo ? ["--demo"] : []) + [
                "--data", data, "--database", url, "--node", name, "--evaluation-lease", "5",
            ])
    }

    /// What `GET /health` says, or `nil` when the node does not answer.
    static func health(_ base: String) async -> [String: Any]? {
        try? await HarnessResponse.json(.get, base + "/health").object
    }

    /// The shards of patients the node at `base` evaluates (`GET /health`).
    static func shards(_ base: String) async -> [Int]? {
        await health(base)?["shards"] as? [Int]
    }

    /// Whether the two nodes evaluate eight shards each, between them all sixteen.
    static func sharedOut(_ first: String, _ second: String) async -> Bool {
        guard let one = await shards(first), let other = await shards(second) else { return false }
        return one.count == 8 && other.count == 8 && Set(one + other).count == 16
    }

    /// Polls `condition` every 100 ms until it holds or `limit` passes (processes and a
    /// database: there is no event to wait on); whether it held.
    static func eventually(within limit: Duration, _ condition: () async throws -> Bool) async rethrows -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if try await condition() { return true }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return try await condition()
    }

    /// A deteriorating reading set (heart rate 140, respiratory rate 30, SpO2 88: NEWS2 9).
    static func deteriorating(at date: Date) -> [ServeProcessTests.Sample] {
        let start = date.formatted(.iso8601)
        return [
            .init(type: "heartRate", value: 140, start: start), .init(type: "respiratoryRate", value: 30, start: start),
            .init(type: "oxygenSaturation", value: 88, start: start),
        ]
    }

    @Test("""
        two nodes sharing the patients out, readings posted to both; SIGKILL one in the middle of ingest: every \
        acknowledged sample is in the database and evaluated, each deteriorating patient has exactly one alert, the \
        survivor takes the dead node's patients over within the lease, and the killed node rejoins on restart and takes \
        its share back
        """)
    func killTheEvaluatingNode() async throws {
        let url = try await PostgresTestServer.makeDatabase()
        let (a, baseA) = try await Self.node("node-a", on: url, demo: true)
        let (b, baseB) = try await Self.node("node-b", on: url)
        defer {
            a.signal(SIGKILL)
            b.signal(SIGKILL)
        }
        #expect(await Self.health(baseA)?["evaluates"] as? Bool == true, "the first node up evaluates")
        let shared = await Self.eventually(within: .seconds(30)) { await Self.sharedOut(baseA, baseB) }
        #expect(shared, "each node evaluates half the shards of patients within two renewals")
        let tokenA = try await ServeProcessTests.login(baseA, "admin")
        let tokenB = try await ServeProcessTests.login(baseB, "admin")  // an account made by node A, a token node B signed
        let crossed = try await HarnessResponse.json(.get, baseB + "/api/v1/alerts", token: tokenA)
        #expect(crossed.status == .ok, "a token node A issued is good on node B (the secret the first node kept in the database)")
        let keyA = try await HarnessResponse.json(.get, baseA + "/api/v1/push/key").object?["publicKey"] as? String
        let keyB = try await HarnessResponse.json(.get, baseB + "/api/v1/push/key").object?["publicKey"] as? String
        #expect(keyA != nil && keyA == keyB, "both nodes push with the one VAPID key kept in the database")
        for patient in Self.patients {
            let created = try await HarnessResponse.json(
                .post, baseB + "/api/v1/patients", token: tokenB, ["id": patient, "name": "Patient \(patient)", "sector": "covid-ward", "bed": "9"])
            #expect(created.status == .created, "\(created.text)")
        }

        // Ingest through both nodes; node A is killed halfway.
        var acknowledged: [UUID] = []
        var killedAt: ContinuousClock.Instant?
        for round in 0..<10 {
            if round == 5 {
                a.signal(SIGKILL)
                killedAt = .now
            }
            for (index, patient) in Self.patients.enumerated() {
                let (base, token) = round < 5 && (round + index).isMultiple(of: 2) ? (baseA, tokenA) : (baseB, tokenB)
                let response = try await HarnessResponse.json(
                    .post, base + "/api/v1/patients/\(patient)/observations", token: token,
                    Self.deteriorating(at: Date().addingTimeInterval(-Double(10 - round))))
                #expect(response.status == .created, "\(response.text)")
                acknowledged += (response.object?["ids"] as? [String] ?? []).compactMap(UUID.init(uuidString:))
            }
        }
        #expect(acknowledged.count == 10 * Self.patients.count * 3)
        _ = await a.finish()

        // The survivor takes node A's shards once their leases have run out.
        let tookOver = await Self.eventually(within: .seconds(30)) { await Self.shards(baseB) == Array(0..<16) }
        let failover = killedAt.map { ContinuousClock.now - $0 }
        #expect(tookOver)
        if let failover { #expect(failover < .seconds(10), "took over after \(failover) with a 5 s lease") }

        // Every acknowledged sample is in the database, and evaluated: its shard's anchors reached it.
        let pool = try await PostgresPool.connect(PostgresLocation(url: url), maximumConnections: 2, timeout: .seconds(30))
        let stored = try await pool.query("SELECT uuid FROM sample WHERE patient LIKE 'kill-%'").map { try $0.decode(UUID.self) }
        #expect(Set(acknowledged).isSubset(of: Set(stored)), "\(Set(acknowledged).subtracting(stored).count) acknowledged samples missing")
        let evaluated = try await Self.eventually(within: .seconds(60)) {
            try await pool.query(
                """
                SELECT COUNT(*) FROM (
                    SELECT (('x' || substr(md5(patient), 1, 8))::bit(32)::int & 2147483647) % 16 AS shard, type, max(change_number) AS last
                    FROM sample WHERE patient LIKE 'kill-%' GROUP BY 1, 2
                ) s
                LEFT JOIN pipeline_shard_anchor a ON a.shard = s.shard AND a.type = s.type WHERE COALESCE(a.anchor, 0) < s.last
                """
            ).first?.decode(Int.self) == 0
        }
        #expect(evaluated, "the survivor's anchors reach every sample accepted by either node")

        // One clinical alert per deteriorating patient, across both nodes' work (each goes
        // through a Contract Net of its own, so the last may come a little after the anchors).
        func clinicalAlerts() async throws -> [String: Int] {
            let alerts = try await HarnessResponse.json(.get, baseB + "/api/v1/alerts?status=all", token: tokenB)
            let clinical = (alerts.array as? [[String: Any]] ?? []).filter {
                Self.patients.contains($0["patient"] as? String ?? "") && $0["category"] as? String == "clinical"
            }
            return Dictionary(grouping: clinical, by: { $0["patient"] as? String ?? "" }).mapValues(\.count)
        }
        let everyPatient = try await Self.eventually(within: .seconds(60)) { try await clinicalAlerts().count == Self.patients.count }
        #expect(everyPatient)
        #expect(try await clinicalAlerts() == Dictionary(uniqueKeysWithValues: Self.patients.map { ($0, 1) }))

        // Node A comes back: it serves again and takes its share of the patients back.
        let (again, baseAgain) = try await Self.node("node-a", on: url)
        defer { again.signal(SIGKILL) }
        #expect(await Self.health(baseAgain)?["node"] as? String == "node-a")
        let reshared = await Self.eventually(within: .seconds(30)) { await Self.sharedOut(baseAgain, baseB) }
        #expect(reshared, "the rejoined node evaluates half the patients again")
        let token = try await ServeProcessTests.login(baseAgain, "admin")
        let listed = try await HarnessResponse.json(.get, baseAgain + "/api/v1/alerts?status=all", token: token)
        #expect((listed.array as? [[String: Any]] ?? []).filter { Self.patients.contains($0["patient"] as? String ?? "") }.count >= 4)
        again.signal(SIGTERM)
        b.signal(SIGTERM)
        #expect(await again.finish().status == 0)
        #expect(await b.finish().status == 0)
        await pool.close()
    }
}
