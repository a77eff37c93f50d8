import Foundation
import SADETestTiming
import Testing
import SADEHealth
import SADEMonitoring

@Suite("Alerts named by their escalation notices", .timeLimit(.minutes(3)), .timed)
struct AlertNoticeTests {
    @Test("an escalated alert is read and acknowledged by the id of the notice its doctor got, as by its own id")
    func acknowledgeByNotice() async throws {
        try await ServerHarness.run { harness in
            try await AlertFlowTests.seed(harness)
            try await harness.createAccount("d1", role: .doctor, staffID: "d1")
            let admin = try await harness.login("admin")
            let d1 = try await harness.login("d1")
            let nb = try await harness.login("nb")
            let flow = AlertFlowTests()
            try await flow.post(harness, "p-a", AlertFlowTests.deteriorated(at: harness.system.now()), token: admin)
            let alert = try #require(try await flow.clinicalAlerts(harness, patient: "p-a", token: admin).first)
            let alertID = try #require(alert["id"] as? String)

            // Not acknowledged for five minutes: escalated to the sector's doctor, d1.
            let stream = try await EventStream.open(harness, token: d1)
            var events = stream.events.makeAsyncIterator()
            harness.clock.advance(by: .seconds(5 * 60 + 1))
            let escalated = try #require(await events.next { $0.name == "escalated" && $0.data["id"] as? String == alertID })
            let steps = escalated.data["escalations"] as? [[String: Any]] ?? []
            let notice = try #require(steps.first { $0["step"] as? Int == 1 }?["notice"] as? String)
            #expect(notice != alertID)

            let read = try await harness.request(.get, "/api/v1/alerts/\(notice)", token: d1)
            #expect(read.status == .ok && read.id == alertID, "\(read.text)")
            #expect(try await harness.request(.post, "/api/v1/alerts/\(notice)/acknowledge", token: nb).status == .forbidden)
            let acknowledged = try await harness.request(.post, "/api/v1/alerts/\(notice)/acknowledge", token: d1)
            #expect(acknowledged.status == .ok, "\(acknowledged.text)")
            #expect(acknowledged.id == alertID && acknowledged.object?["acknowledgedBy"] as? String == "d1")
            #expect(try await harness.request(.post, "/api/v1/alerts/\(alertID)/acknowledge", token: d1).status == .conflict)
            stream.close()
        }
    }
}
