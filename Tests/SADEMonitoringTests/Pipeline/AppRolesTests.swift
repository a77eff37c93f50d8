import Foundation
import SADECore
import SADEHealth
@testable import SADEMonitoring
import SADETestTiming
import Testing

@Suite("Hot spots open for apps: care-worker roles of their own", .timeLimit(.minutes(3)), .timed)
struct AppRolesTests {
    @Test("a role registered by the app is stored, refused when unknown, and its workers bid for alerts when the rules name it")
    func physiotherapistTakesTheAlert() async throws {
        let physiotherapist = try HealthCareWorker.Role.register("physiotherapist")
        #expect(try HealthCareWorker.Role.register("physiotherapist") == physiotherapist)
        #expect(HealthCareWorker.Role(rawValue: "physiotherapist") == physiotherapist)
        #expect(HealthCareWorker.Role(rawValue: "wizard") == nil)
        #expect(throws: HealthError.self) { try HealthCareWorker.Role.register("Head Nurse") }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(HealthCareWorker.Role.self, from: Data(#""wizard""#.utf8)) }

        let rules = AlertRules(contractors: [.nurse, physiotherapist])
        let simulator = VitalSignSimulator(patient: "patient-02", profile: .deteriorating, seed: 2, start: Ward.epoch)
        let fixture = try PipelineFixture.make(simulators: [simulator], rules: rules)
        try await Ward.seed(fixture.store, patients: [Ward.patient("patient-02", in: "isolation")])
        let phil = HealthCareWorker(id: "phil", name: "Phil", role: physiotherapist, sectors: ["isolation"], onDuty: true)
        try await fixture.store.save(phil)
        #expect(try await fixture.store.worker("phil") == phil)
        try await fixture.start()

        let alert = try #require(try await fixture.tickUntilAlert(for: "patient-02"))
        #expect(alert.assignee == "phil", "isolation's nurse is off duty; the physiotherapist on duty bids")
        await fixture.stop()
    }
}
