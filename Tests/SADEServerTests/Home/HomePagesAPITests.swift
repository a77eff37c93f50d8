import Foundation
import SADEHome
import SADETestTiming
import Testing

/// What the home pages read besides the bus: the flats' tiles, a flat's days of activity
/// and where a message's notification of the carers stands.
@Suite("The home pages' REST API", .timeLimit(.minutes(3)), .timed)
struct HomePagesAPITests {
    /// A flat of patient-01 (Paul) in nurse1's care: a kitchen and a bedroom with a motion
    /// sensor each, an alarm after one quiet hour, and a smoke detector.
    static func flat(_ harness: ServerHarness, ward: AdminWard) async throws -> (flat: Flat, kitchen: DeviceID, smoke: DeviceID) {
        let created = try await harness.request(.post, "/api/v1/homes", token: ward.admin, raw: #"""
            {"name": "Paul's flat", "resident": "patient-01", "carers": ["nurse1"], "inactivity": {"continuous_hours": 1},
             "rooms": [{"name": "Kitchen", "type": "kitchen", "polygon": [[0, 0], [4, 0], [4, 3], [0, 3]],
                        "devices": [{"name": "Kitchen motion", "kind": "motion", "x": 1, "y": 1},
                                    {"name": "Kitchen smoke", "kind": "smoke", "x": 2, "y": 1}]},
                       {"name": "Bedroom", "type": "bedroom", "polygon": [[4, 0], [8, 0], [8, 3], [4, 3]],
                        "devices": [{"name": "Bedroom motion", "kind": "motion", "x": 5, "y": 1}]}]}
            """#)
        let id = try #require((created.object?["id"] as? NSNumber)?.int64Value, "\(created.text)")
        let flat = try await harness.system.homeStore.flat(id)
        let kitchen = try #require(flat.devices.first { $0.name == "Kitchen motion" }?.id)
        let smoke = try #require(flat.devices.first { $0.name == "Kitchen smoke" }?.id)
        return (flat, kitchen, smoke)
    }

    @Test("a flat's days: 24 hourly counts each, today not complete, the thesis's band, and the last activity alarm with its reason")
    func activity() async throws {
        try await ServerHarness.run { harness in
            let ward = try await AdminWard.seed(in: harness)
            let (flat, kitchen, _) = try await Self.flat(harness, ward: ward)
            let now = harness.system.now()
            let today = flat.calendar.startOfDay(for: now)
            // Four days before today and this morning: six activations at 08:00–08:30 and three at 12:00.
            var events: [StateEvent] = []
            for day in -4...0 {
                let start = today.addingTimeInterval(Double(day) * 86_400)
                events += (0..<6).map { StateEvent(device: kitchen, value: 1, time: start.addingTimeInterval(8 * 3600 + Double($0) * 300)) }
                if day < 0 { events += (0..<3).map { StateEvent(device: kitchen, value: 1, time: start.addingTimeInterval(12 * 3600 + Double($0) * 60)) } }
            }
            try await harness.system.homeStore.record(events)

            let answer = try await harness.request(.get, "/api/v1/homes/\(flat.id)/activity?days=5", token: ward.nurse1)
            #expect(answer.status == .ok, "\(answer.text)")
            let days = try #require(answer.object?["days"] as? [[String: Any]])
            #expect(days.count == 5)
            #expect(days.map { $0["complete"] as? Bool } == [true, true, true, true, false], "only today is not over")
            for (index, day) in days.enumerated() {
                let hourly = try #require(day["hourly"] as? [Int])
                #expect(hourly.count == 24)
                #expect(hourly[8] == 6 && hourly[12] == (index < 4 ? 3 : 0) && hourly.reduce(0, +) == (index < 4 ? 9 : 6), "\(hourly)")
                #expect(day["active_hours"] as? Int == 1, "only 08:00 has five or more")
            }
            #expect((days[0]["band"] as? [Double])?.count == 2, "the thesis's band, learned from the complete days")
            #expect(answer.object?["last_alarm"] == nil, "no activity alarm yet")

            let earlier = HomeMessageDraft(flat: flat.id, severity: .alarm, title: "No activity", text: "No activity since yesterday.", key: "inactivity:continuous:0")
            try await harness.system.home.alarms.raise(earlier, flat: flat, at: now.addingTimeInterval(-3600))
            let quiet = HomeMessageDraft(flat: flat.id, severity: .alarm, title: "No activity", text: "No activity since 08:25.", key: "inactivity:continuous:1")
            try await harness.system.home.alarms.raise(quiet, flat: flat, at: now)
            try await harness.system.home.alarms.raise(
                HomeMessageDraft(flat: flat.id, severity: .warning, title: "Weak battery", text: "…", key: "battery:1:weak"), flat: flat, at: now)
            let again = try await harness.request(.get, "/api/v1/homes/\(flat.id)/activity?days=5", token: ward.nurse1)
            let last = try #require(again.object?["last_alarm"] as? [String: Any], "\(again.text.prefix(300))")
            #expect(last["text"] as? String == "No activity since 08:25.", "the newest activity alarm: not the older one, not the battery warning")

            for bad in ["1", "367", "week"] {
                let refused = try await harness.request(.get, "/api/v1/homes/\(flat.id)/activity?days=\(bad)", token: ward.nurse1)
                #expect(refused.status == .badRequest && refused.errorCode == "invalid-parameter", "days=\(bad)")
            }
            #expect(try await harness.request(.get, "/api/v1/homes/\(flat.id)/activity", token: ward.nurse2).status == .forbidden)
        }
    }

    @Test("the flats' tiles: the resident's name, the last activity and the activity condition from the flat's quiet limit")
    func tiles() async throws {
        try await ServerHarness.run { harness in
            let ward = try await AdminWard.seed(in: harness)
            let (flat, kitchen, _) = try await Self.flat(harness, ward: ward)
            let now = harness.system.now()
            try await harness.system.home.ingest([StateEvent(device: kitchen, value: 1, time: now.addingTimeInterval(-600))], flat: flat.id)
            let tile = { () async throws -> [String: Any] in
                let list = try await harness.request(.get, "/api/v1/homes", token: ward.nurse1)
                return try #require((list.array as? [[String: Any]])?.first { ($0["id"] as? NSNumber)?.int64Value == flat.id }, "\(list.text)")
            }
            var summary = try await tile()
            #expect(summary["resident_name"] as? String == "Paul")
            #expect(summary["condition"] as? String == "normal", "quiet for 10 minutes of the hour allowed")
            harness.clock.advance(by: .seconds(3600))
            summary = try await tile()
            #expect(summary["condition"] as? String == "inactive", "quiet for 70 minutes: over the flat's hour")
            #expect(summary["last_activity"] as? String == HomeStateJSONDates.iso(now.addingTimeInterval(-600)))
        }
    }

    @Test("a message's escalation: reminders going while it is open, stopped and acknowledged once a carer confirms it")
    func escalation() async throws {
        try await ServerHarness.run { harness in
            let ward = try await AdminWard.seed(in: harness)
            let (flat, _, smoke) = try await Self.flat(harness, ward: ward)
            let messages = harness.system.home.events.subscribe(flats: [flat.id])
            let now = harness.system.now()
            try await harness.system.home.ingest([StateEvent(device: smoke, value: 0, time: now), StateEvent(device: smoke, value: 1, time: now)], flat: flat.id)
            var alarm: Int64?
            for await event in messages { if case .message(let message) = event { alarm = message.id; break } }
            let id = try #require(alarm)
            let path = "/api/v1/homes/\(flat.id)/messages/\(id)"
            let open = try #require(try await harness.request(.get, path, token: ward.nurse1).object)
            let before = try #require(open["escalation"] as? [String: Any], "\(open)")
            #expect(before["escalating"] as? Bool == true && before["acknowledged_by"] == nil)
            #expect((before["steps"] as? [[String: Any]])?.first?["recipients"] as? [String] == ["user:nurse1", "user:rel1"], "the carer, then Paul's relative")

            #expect(try await harness.request(.post, "\(path)/confirm", token: ward.nurse1).status == .ok)
            let after = try #require(try await harness.request(.get, path, token: ward.nurse1).object?["escalation"] as? [String: Any])
            #expect(after["escalating"] as? Bool == false && after["acknowledged_by"] as? String == "nurse1")
            #expect((after["steps"] as? [Any])?.count == (before["steps"] as? [Any])?.count, "no reminder after the confirmation")
            #expect(await harness.system.alertDesk.escalatingCount == 0)

            #expect(try await harness.request(.get, "/api/v1/homes/\(flat.id)/messages/999", token: ward.nurse1).status == .notFound)
            #expect(try await harness.request(.get, "/api/v1/homes/\(flat.id)/messages/x", token: ward.nurse1).status == .notFound)
            #expect(try await harness.request(.get, path, token: ward.nurse2).status == .forbidden)
        }
    }
}

extension HomePagesAPITests {
    @Test("a state change without a battery reading carries the device's last known charge, as its state does")
    func batteryCarried() async throws {
        try await ServerHarness.run { harness in
            let ward = try await AdminWard.seed(in: harness)
            let (flat, kitchen, _) = try await Self.flat(harness, ward: ward)
            let now = harness.system.now()
            let changes = harness.system.home.events.subscribe(flats: [flat.id])
            try await harness.system.home.ingest([StateEvent(device: kitchen, value: 1, battery: 42, time: now.addingTimeInterval(-2))], flat: flat.id)
            try await harness.system.home.ingest([StateEvent(device: kitchen, value: 0, time: now.addingTimeInterval(-1))], flat: flat.id)
            var batteries: [Int?] = []
            for await event in changes {
                if case .stateChanged(_, _, _, let new) = event { batteries.append(new.battery) }
                if batteries.count == 2 { break }
            }
            #expect(batteries == [42, 42])
        }
    }
}

/// Dates as the API writes them.
enum HomeStateJSONDates {
    static func iso(_ date: Date) -> String { date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)) }
}
