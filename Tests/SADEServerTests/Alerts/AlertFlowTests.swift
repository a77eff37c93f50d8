import Foundation
import SADETestTiming
import Testing
import SADEHealth
import SADEMonitoring

@Suite("Alerts end to end over HTTP", .timeLimit(.minutes(3)), .timed)
struct AlertFlowTests {
    /// Ward A: nurses n1, n2 on duty, n3 off duty, doctor d1; ward B: nurse nb.
    static func seed(_ harness: ServerHarness) async throws {
        let health = harness.system.health
        try await health.save(Hospital(id: "h", name: "Hospital"))
        try await health.save(HospitalSector(id: "ward-a", hospital: "h", name: "Ward A", mailingList: ["ward-a@example.org"]))
        try await health.save(HospitalSector(id: "ward-b", hospital: "h", name: "Ward B"))
        for (id, sector, onDuty) in [("n1", "ward-a", true), ("n2", "ward-a", true), ("n3", "ward-a", false), ("nb", "ward-b", true)] {
            try await health.save(HealthCareWorker(id: id, name: id.uppercased(), role: .nurse, sectors: [sector], onDuty: onDuty))
            try await harness.createAccount(id, role: .nurse, staffID: id)
        }
        try await health.save(HealthCareWorker(id: "d1", name: "D1", role: .doctor, sectors: ["ward-a"], onDuty: true))
        for (id, sector) in [("p-a0", "ward-a"), ("p-a", "ward-a"), ("p-b", "ward-b")] {
            try await health.save(Patient(id: PatientID(id), name: id, sector: sector))
        }
        try await harness.system.staffChanged()
    }

    /// NEWS2 12: respiration 26, SpO2 90 % on air, systolic 95, pulse 125, alert, 39.5 °C.
    static func deteriorated(at date: Date) -> [Observation] {
        [
            Observation("respiratoryRate", 26, at: date), Observation("oxygenSaturation", 90, at: date),
            Observation("supplementalOxygen", 0, at: date), Observation("bloodPressureSystolic", 95, at: date),
            Observation("heartRate", 125, at: date), Observation("consciousnessLevel", 0, at: date),
            Observation("bodyTemperature", 39.5, at: date),
        ]
    }

    func post(_ harness: ServerHarness, _ patient: String, _ body: [Observation], token: String) async throws {
        let response = try await harness.request(.post, "/api/v1/patients/\(patient)/observations", token: token, json: body)
        #expect(response.status == .created, "\(response.text)")
        await harness.system.pipeline.settle()
    }

    func clinicalAlerts(_ harness: ServerHarness, patient: String, token: String) async throws -> [[String: Any]] {
        let response = try await harness.request(.get, "/api/v1/alerts?status=all&patient=\(patient)", token: token)
        #expect(response.status == .ok)
        return (response.array as? [[String: Any]] ?? []).filter { $0["category"] as? String == "clinical" }
    }

    @Test("""
        a deteriorating patient gives exactly one alert, given by Contract Net to the least-loaded nurse of the sector, \
        pushed live only to those who may see it, escalated when not acknowledged and no further once acknowledged
        """)
    func alertFlow() async throws {
        try await ServerHarness.run { harness in
            try await Self.seed(harness)
            let admin = try await harness.login("admin")
            let n2 = try await harness.login("n2")
            let nb = try await harness.login("nb")
            try await post(harness, "p-a0", Self.deteriorated(at: harness.system.now()), token: admin)
            let first = try #require(try await clinicalAlerts(harness, patient: "p-a0", token: admin).first)
            #expect(first["assignee"] as? String == "n1", "a tie between n1 and n2 goes to the lower id")

            let n2Stream = try await EventStream.open(harness, token: n2)
            let nbStream = try await EventStream.open(harness, token: nb)
            var n2Events = n2Stream.events.makeAsyncIterator()
            try await post(harness, "p-a", Self.deteriorated(at: harness.system.now()), token: admin)
            let pushed = try #require(await n2Events.next { $0.name == "alert" && $0.patient == "p-a" })
            #expect(pushed.data["assignee"] as? String == "n2", "n1 already has an open alert; n3 is off duty; nb works elsewhere")
            let alertID = try #require(pushed.data["id"] as? String)

            // More bad readings: the same episode, still one alert.
            harness.clock.advance(by: .seconds(30))
            try await post(harness, "p-a", Self.deteriorated(at: harness.system.now()), token: admin)
            #expect(try await clinicalAlerts(harness, patient: "p-a", token: n2).map { $0["id"] as? String } == [alertID])

            // Ward B's nurse saw none of it: her first event is about her own patient.
            try await post(harness, "p-b", [Observation("heartRate", 70, at: harness.system.now())], token: admin)
            var nbEvents = nbStream.events.makeAsyncIterator()
            let nbFirst = await nbEvents.next()
            #expect(nbFirst?.patient == "p-b")

            // Not acknowledged for five minutes: escalated to the sector's doctor.
            harness.clock.advance(by: .seconds(5 * 60 + 1))
            let escalated = try #require(await n2Events.next { $0.name == "escalated" && $0.data["id"] as? String == alertID })
            let steps = (escalated.data["escalations"] as? [[String: Any]])?.compactMap { $0["step"] as? Int }
            #expect(steps == [0, 1])

            #expect(try await harness.request(.post, "/api/v1/alerts/\(alertID)/acknowledge", token: nb).status == .forbidden)
            let acknowledged = try await harness.request(.post, "/api/v1/alerts/\(alertID)/acknowledge", token: n2)
            #expect(acknowledged.status == .ok)
            #expect(acknowledged.object?["acknowledgedBy"] as? String == "n2")
            #expect(await n2Events.next { $0.name == "acknowledged" }?.data["id"] as? String == alertID)
            let again = try await harness.request(.post, "/api/v1/alerts/\(alertID)/acknowledge", token: n2)
            #expect(again.status == .conflict)

            harness.clock.advance(by: .seconds(20 * 60))
            await harness.system.pipeline.settle()
            let after = try await harness.request(.get, "/api/v1/alerts/\(alertID)", token: n2)
            let afterSteps = (after.object?["escalations"] as? [[String: Any]])?.compactMap { $0["step"] as? Int }
            #expect(afterSteps == [0, 1], "no e-mail to the sector after the acknowledgement")
            let open = try await harness.request(.get, "/api/v1/alerts?status=open&patient=p-a", token: n2)
            #expect((open.array ?? []).allSatisfy { ($0 as? [String: Any])?["category"] as? String != "clinical" })
            n2Stream.close()
            nbStream.close()
        }
    }

    @Test("a live stream asked for some kinds of event carries those only; an unknown kind is a 400 naming it")
    func streamOfChosenKinds() async throws {
        try await ServerHarness.run { harness in
            try await Self.seed(harness)
            let admin = try await harness.login("admin")
            let alertsOnly = try await EventStream.open(harness, token: admin, types: "alert,acknowledged")
            var events = alertsOnly.events.makeAsyncIterator()
            try await post(harness, "p-b", [Observation("heartRate", 70, at: harness.system.now())], token: admin)
            try await post(harness, "p-a", Self.deteriorated(at: harness.system.now()), token: admin)
            let first = await events.next()
            #expect(first?.name == "alert" && first?.patient == "p-a", "no samples or scores before it: \(first?.name ?? "none")")
            alertsOnly.close()

            let unknown = try await harness.request(.get, "/api/v1/events?types=alert,weather", token: admin)
            #expect(unknown.status == .badRequest)
            #expect(unknown.errorMessage?.contains("weather") == true)
        }
    }

    @Test("alert routes refuse what callers may not do and name unknown alerts")
    func alertErrors() async throws {
        try await ServerHarness.run { harness in
            try await Self.seed(harness)
            let nb = try await harness.login("nb")
            #expect(try await harness.request(.get, "/api/v1/alerts?status=later", token: nb).status == .badRequest)
            #expect(try await harness.request(.get, "/api/v1/alerts?patient=p-a", token: nb).status == .forbidden)
            #expect(try await harness.request(.get, "/api/v1/alerts/\(UUID().uuidString)", token: nb).status == .notFound)
            #expect(try await harness.request(.get, "/api/v1/alerts/not-a-uuid", token: nb).status == .notFound)
            #expect(try await harness.request(.get, "/api/v1/alerts").status == .unauthorized)
            let (_, secret) = try await harness.system.devices.issue(for: "p-a", label: "monitor")
            #expect(try await harness.request(.get, "/api/v1/alerts", token: secret).status == .forbidden)
            #expect(try await harness.request(.get, "/api/v1/events", token: secret).status == .forbidden)
            #expect(try await harness.request(.get, "/api/v1/alerts", token: nb).array?.isEmpty == true)
        }
    }
}
