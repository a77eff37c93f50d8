import Foundation
import SADETestSupport
import SADETestTiming
import Testing

@Suite("sade home import, the demo homes and a restart (processes)", .serialized, .timeLimit(.minutes(4)), .timed)
struct HomeImportCommandTests {
    static let casas = """
        2026-01-04 22:30:00 M003 ON Sleeping begin
        2026-01-05 06:58:10.120001 M003 ON Sleeping end
        2026-01-05 06:58:12.5 M003 OFF
        2026-01-05 07:01:00 D001 OPEN
        2026-01-05 07:01:04 D001 CLOSE
        2026-01-05 07:02:00 T002 20.5
        """

    struct Fall: Encodable {
        struct Event: Encodable {
            let device_id: Int
            let value: Double
            let time: String
        }
        let events: [Event]
    }

    @Test("""
        the demo seeds two flats with history; an alarm stays open across a restart; a CASAS file imports into the data \
        directory (a bad one names its line and imports nothing) and replays into the running server
        """)
    func demoImportReplayRestart() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("sade-home-import-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let file = data + "-casas.txt", bad = data + "-bad.txt"
        try Self.casas.write(toFile: file, atomically: true, encoding: .utf8)
        try (Self.casas + "\n2026-01-05 07:03:00 M003 SOMETIMES\n").write(toFile: bad, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file); try? FileManager.default.removeItem(atPath: bad) }

        // The demo: two flats with 30 days of history; a fall alarm in Ana's.
        let (server, url) = try await ServeProcessTests.serve(["--demo", "--data", data])
        #expect(await server.line(containing: "seeded 2 flats with 30 days") != nil)
        let admin = try await ServeProcessTests.login(url, "admin")
        let flats = try #require(try await HarnessResponse.json(.get, url + "/api/v1/homes", token: admin).array as? [[String: Any]])
        #expect(flats.count == 2 && flats.allSatisfy { $0["last_activity"] != nil })
        let plan = try #require(try await HarnessResponse.json(.get, url + "/api/v1/homes/1", token: admin).object)
        let fall = try #require((plan["devices"] as? [[String: Any]])?.first { $0["entity_id"] as? String == "binary_sensor.bathroom_fall" }?["id"] as? Int)
        let iso = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        let posted = try await HarnessResponse.json(.post, url + "/api/v1/homes/1/events", token: admin, Fall(events: [
            .init(device_id: fall, value: 0, time: iso.format(Date().addingTimeInterval(-1))), .init(device_id: fall, value: 1, time: iso.format(Date())),
        ]))
        #expect(posted.status == .created, "\(posted.text)")
        var open: [[String: Any]] = []
        for _ in 0..<200 where open.isEmpty {  // the home agent raises the alarm on its own time
            open = try #require(try await HarnessResponse.json(.get, url + "/api/v1/homes/1/messages", token: admin).array as? [[String: Any]])
                .filter { $0["class"] as? String == "alarm" && $0["device_id"] as? Int == fall }
            if open.isEmpty { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(open.count == 1, "the fall alarm is open")
        server.signal(SIGTERM)
        #expect(await server.finish().status == 0)

        // Offline: a bad file imports nothing; a good one adds its sensors and events.
        let refused = try await SadeProcess.run(["home", "import", "--data", data, "--flat", "1", bad])
        #expect(refused.status != 0 && refused.error.contains("line 7: value \"SOMETIMES\" of M003"), "\(refused.error)")
        let imported = try await SadeProcess.run(["home", "import", "--data", data, "--flat", "1", file])
        #expect(imported.status == 0, "\(imported.error)")
        #expect(imported.output.contains("imported 6 events into flat 1"), "\(imported.output)")
        #expect(imported.output.contains("added devices: D001, M003, T002") && imported.output.contains("activity Sleeping"), "\(imported.output)")

        // A restart keeps the flats, the history and the open alarm; the file replays into the running server.
        let (again, secondURL) = try await ServeProcessTests.serve(["--data", data])
        defer { again.terminate() }
        let token = try await ServeProcessTests.login(secondURL, "admin")
        let kept = try #require(try await HarnessResponse.json(.get, secondURL + "/api/v1/homes/1/messages", token: token).array as? [[String: Any]])
        #expect(kept.contains { $0["device_id"] as? Int == fall && $0["state"] as? String == "open" }, "the alarm is still open")
        #expect((try await HarnessResponse.json(.get, secondURL + "/api/v1/homes", token: token).array ?? []).count == 2)
        let replayed = try await SadeProcess.run(["home", "import", "--replay", "--server", secondURL, "--flat", "1", "--speed", "100000", file])
        #expect(replayed.status == 0, "\(replayed.output)\n\(replayed.error)")
        #expect(replayed.output.contains("replayed 6 events"), "\(replayed.output)")
    }
}
