import Foundation
import GRDB
import SADETestTiming
import Testing
import SADETestSupport

/// `sade serve` and `sade simulate` as separate processes on loopback.
@Suite("sade serve and sade simulate as processes", .timeLimit(.minutes(3)), .timed)
struct ServeProcessTests {
    /// Starts `sade serve` and returns it with its base URL.
    static func serve(_ arguments: [String]) async throws -> (SadeProcess, String) {
        let process = try SadeProcess(["serve", "--port", "0"] + arguments)
        guard let line = await process.line(containing: "listening on http://"),
            let url = line.split(separator: " ").last.map(String.init)
        else {
            let failed = await process.finish()
            throw SadeProcessError.notListening("serve did not start: \(failed.error)")
        }
        return (process, url)
    }

    static func login(_ url: String, _ username: String) async throws -> String {
        let response = try await HarnessResponse.json(.post, url + "/api/v1/auth/login", ["username": username, "password": "sade-demo"])
        return try #require(response.object?["token"] as? String, "\(response.text)")
    }

    @Test("""
        serve --demo seeds the demo hospital and prints the accounts; simulate drives it through the API as monitors, watches and ESP32s; a SIGTERM \
        stops it cleanly and a restart on the same data keeps accounts and samples
        """)
    func serveSimulateRestart() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("sade-serve-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let (server, url) = try await Self.serve(["--demo", "--data", data])
        #expect(await server.line(containing: "nurse3") != nil, "the demo accounts are printed")

        let nurse = try await Self.login(url, "nurse1")
        let patients = try await HarnessResponse.json(.get, url + "/api/v1/patients", token: nurse)
        #expect(patients.array?.count == 8, "nurse1 works in the COVID ward: 8 of the 12 patients")

        let simulation = try await SadeProcess.run([
            "simulate", "--server", url, "--patients", "2", "--profile", "monitor", "--interval", "0.25", "--duration", "1.5",
            "--scenario", "normal", "--quiet",
        ])
        #expect(simulation.status == 0, "\(simulation.error)")
        let summary = try #require(simulation.output.split(separator: "\n").last { $0.hasPrefix("sent ") })
        #expect(summary.contains("rejected 0") && summary.contains("failed 0") && !summary.hasPrefix("sent 0,"), "\(summary)")

        for profile in ["watch", "esp32"] {
            let wearables = try await SadeProcess.run([
                "simulate", "--server", url, "--patients", "2", "--profile", profile, "--interval", "0.25", "--duration", "1",
                "--scenario", "deteriorating", "--quiet",
            ])
            #expect(wearables.status == 0, "\(profile): \(wearables.error)")
            let line = try #require(wearables.output.split(separator: "\n").last { $0.hasPrefix("sent ") })
            #expect(line.contains("rejected 0") && line.contains("failed 0") && !line.hasPrefix("sent 0,"), "\(profile): \(line)")
        }

        let admin = try await Self.login(url, "admin")
        let posted = try await HarnessResponse.json(
            .post, url + "/api/v1/patients/patient-05/observations", token: admin,
            ["type": "heartRate", "value": "171", "start": Date().formatted(.iso8601)])
        #expect(posted.status == .badRequest, "a value must be a number")
        let accepted = try await HarnessResponse.json(
            .post, url + "/api/v1/patients/patient-05/observations", token: admin,
            [Sample(type: "heartRate", value: 171, start: Date().formatted(.iso8601))])
        #expect(accepted.status == .created)
        let id = try #require((accepted.object?["ids"] as? [String])?.first)

        // The Prometheus backend sade serve bootstraps shows the framework's metrics and Hummingbird's.
        let metrics = OperationsTests.values(try await HarnessResponse.json(.get, url + "/metrics").text)
        #expect(metrics[#"sade_agents_alive{platform="hospital"}"#, default: 0] >= 3)
        #expect(metrics[#"sade_messages_delivered_total{platform="hospital"}"#, default: 0] > 0)
        #expect(metrics["sade_samples_accepted_total", default: 0] >= 2, "the simulators' samples and the one posted")
        #expect(metrics.keys.contains { $0.hasPrefix(#"hb_requests{http_route="/api/v1/patients/{id}/observations""#) })

        server.signal(SIGTERM)
        let stopped = await server.finish()
        #expect(stopped.status == 0, "\(stopped.error)")
        #expect(stopped.output.contains("stopped"))

        let (again, secondURL) = try await Self.serve(["--demo", "--data", data])
        #expect(await again.line(containing: "already has data") != nil)
        let token = try await Self.login(secondURL, "admin")
        let samples = try await HarnessResponse.json(.get, secondURL + "/api/v1/patients/patient-05/observations?type=heartRate", token: token)
        #expect((samples.array as? [[String: Any]])?.contains { ($0["id"] as? String)?.lowercased() == id.lowercased() } == true)
        again.signal(SIGINT)
        #expect(await again.finish().status == 0)

        // Both runs wrote one audit trail; `sade audit verify` finds it whole, then finds the entry changed behind its back.
        let intact = try await SadeProcess.run(["audit", "verify", "--data", data])
        #expect(intact.status == 0, "\(intact.output)\(intact.error)")
        #expect(intact.output.hasPrefix("audit trail intact: "), "\(intact.output)")
        let trail = try DatabaseQueue(path: (data as NSString).appendingPathComponent("audit.sqlite"))
        let readings = try await trail.read { db in
            try Int.fetchOne(db, sql: "SELECT sequence FROM auditEntry WHERE target = 'POST /api/v1/patients/patient-05/observations' AND status = 201")
        }
        let forged = try #require(readings, "the admin's accepted batch is an entry")
        try await trail.write { db in try db.execute(sql: "UPDATE auditEntry SET actor = 'nurse1' WHERE sequence = ?", arguments: [forged]) }
        let broken = try await SadeProcess.run(["audit", "verify", "--data", data])
        #expect(broken.status == 1)
        #expect(broken.output.contains("BROKEN at entry \(forged): its contents do not match its hash"), "\(broken.output)")
        #expect(broken.output.contains("nurse1 change POST /api/v1/patients/patient-05/observations → 201"), "\(broken.output)")
        let nothing = try await SadeProcess.run(["audit", "verify", "--data", data + "-missing"])
        #expect(nothing.status != 0 && nothing.error.contains("no audit trail at"), "\(nothing.error)")
    }

    struct Sample: Encodable, Sendable {
        let type: String
        let value: Double
        let start: String
    }
}

/// `sade keys` and `sade serve --data-key-file`, as processes.
@Suite("Data keys as processes", .timeLimit(.minutes(3)), .timed)
struct DataKeyProcessTests {
    /// Every byte of a data directory's files: what a stolen disk or backup holds.
    static func bytes(of directory: String) throws -> Data {
        var bytes = Data()
        for file in try FileManager.default.contentsOfDirectory(atPath: directory) {
            bytes += (try? Data(contentsOf: URL(fileURLWithPath: directory + "/" + file))) ?? Data()
        }
        return bytes
    }

    @Test("""
        keys new makes a key file; serve --demo with it stores no name, birth date or e-mail address in the open; keys rotate \
        seals everything under a new key and retires the old; serve reads it all with the rotated file
        """)
    func sealedServe() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("sade-keys-\(UUID().uuidString)").path
        let keyFile = data + "-key"
        defer {
            try? FileManager.default.removeItem(atPath: data)
            try? FileManager.default.removeItem(atPath: keyFile)
        }
        let made = try await SadeProcess.run(["keys", "new", "--data-key-file", keyFile])
        #expect(made.status == 0 && made.output.hasPrefix("data key "), "\(made.output)\(made.error)")
        #expect(try await SadeProcess.run(["keys", "new", "--data-key-file", keyFile]).status != 0, "never over an existing file")
        let firstKey = try String(contentsOfFile: keyFile, encoding: .utf8)

        let (server, url) = try await ServeProcessTests.serve(["--demo", "--data", data, "--data-key-file", keyFile])
        let admin = try await ServeProcessTests.login(url, "admin")
        let me = try await HarnessResponse.json(.get, url + "/api/v1/auth/me", token: admin)
        let adminName = try #require(me.object?["name"] as? String)
        let adminEmail = try #require(me.object?["email"] as? String)
        let patients = try #require(try await HarnessResponse.json(.get, url + "/api/v1/patients", token: admin).array as? [[String: Any]])
        let names = patients.compactMap { ($0["patient"] as? [String: Any])?["name"] as? String }
        #expect(names.count == 14, "the demo's 12 in hospital and 2 at home: \(names)")
        server.signal(SIGTERM)
        #expect(await server.finish().status == 0)

        let disk = try Self.bytes(of: data)
        for secret in names + [adminName, adminEmail] {
            #expect(disk.range(of: Data(secret.utf8)) == nil, "\(secret) is stored in the open")
        }

        let rotated = try await SadeProcess.run(["keys", "rotate", "--data-key-file", keyFile, "--data", data])
        #expect(rotated.status == 0, "\(rotated.output)\(rotated.error)")
        #expect(rotated.output.contains("now seals 14 patients"), "\(rotated.output)")
        let secondKey = try String(contentsOfFile: keyFile, encoding: .utf8)
        #expect(secondKey != firstKey && secondKey.split(separator: "\n").filter { $0.hasPrefix("sade-data-key") }.count == 1)

        let (again, secondURL) = try await ServeProcessTests.serve(["--data", data, "--data-key-file", keyFile])
        let token = try await ServeProcessTests.login(secondURL, "admin")
        let reread = try #require(try await HarnessResponse.json(.get, secondURL + "/api/v1/patients", token: token).array as? [[String: Any]])
        #expect(Set(reread.compactMap { ($0["patient"] as? [String: Any])?["name"] as? String }) == Set(names))
        again.signal(SIGTERM)
        #expect(await again.finish().status == 0)

        try Data(firstKey.utf8).write(to: URL(fileURLWithPath: keyFile))  // the retired key opens nothing now
        let stale = try await SadeProcess(["serve", "--port", "0", "--data", data, "--data-key-file", keyFile]).finish()
        #expect(stale.status != 0, "serve refuses to start on records it cannot open")
        #expect(stale.error.contains("which the data key file does not hold"), "\(stale.error)")
    }
}
