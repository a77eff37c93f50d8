import Foundation
import SADEACL
import SADECore
import SADEHealth
@testable import SADEMonitoring
import SADETestTiming
import Testing

@Suite("Bad input does not stop the agents", .timeLimit(.minutes(3)), .timed)
struct PipelineRobustnessTests {
    @Test("unreadable batches and anomalies and a patient without a record leave the agents working")
    func badInputIsSurvived() async throws {
        let simulators = [
            VitalSignSimulator(patient: "patient-01", profile: .deteriorating, seed: 1, start: Ward.epoch),
            VitalSignSimulator(patient: "ghost", profile: .deteriorating, seed: 9, start: Ward.epoch),
        ]
        let fixture = try PipelineFixture.make(simulators: simulators)
        try await Ward.seed(fixture.store, patients: [Ward.patient("patient-01", in: "covid-ward")])
        try await fixture.start()
        let pipeline = fixture.pipeline
        fixture.environment.route(ACLMessage(
            .inform, receivers: [pipeline.anomalies.agent.identifier], content: "{not json", language: "json",
            ontology: SampleBatch.aclOntology))
        fixture.environment.route(ACLMessage(
            .inform, receivers: [pipeline.alerts.agent.identifier], content: "[]", language: "json", ontology: Anomaly.aclOntology))
        let nobody = Anomaly(episode: UUID(), patient: "nobody", kind: .news2, phase: .resolved, severity: .alarm, time: Ward.epoch)
        fixture.environment.route(try nobody.inform(pipeline.alerts.agent.identifier))

        let alert = try #require(try await fixture.tickUntilAlert(for: "patient-01"))
        #expect(alert.assignee == "cal", "cal and dan have no open alert; the tie goes to the lower id")
        let ghost = try await fixture.tickUntilAlert(for: "ghost")
        #expect(ghost != nil, "a patient without a record is still watched, with the standard ranges")
        #expect(ghost?.assignee == nil && ghost?.sector == nil)
        for agent in [pipeline.collector.agent, pipeline.anomalies.agent, pipeline.alerts.agent] {
            #expect(await agent.state == .active)
        }
        await fixture.stop()
    }

    @Test("care-worker agents follow the staff: a nurse going off duty stops winning, a new nurse joins")
    func refreshStaffFollowsTheRegistry() async throws {
        let fixture = try PipelineFixture.make()
        try await Ward.seed(fixture.store, patients: [])
        try await fixture.start()
        #expect(fixture.environment.directory.search(ServiceTemplate(type: CareWorkerAgent.serviceType, properties: ["sector": "covid-ward", "onDuty": "true"]))
            .map(\.agent.localName) == ["CareWorker-cal", "CareWorker-dan", "CareWorker-doc"])
        var dan = try #require(try await fixture.store.worker("dan"))
        dan.onDuty = false
        try await fixture.store.save(dan)
        try await fixture.store.save(HealthCareWorker(id: "gil m", name: "Gil", role: .nurse, sectors: ["covid-ward"], onDuty: true))
        try await fixture.pipeline.refreshStaff()
        #expect(fixture.environment.directory.search(ServiceTemplate(type: CareWorkerAgent.serviceType, properties: ["sector": "covid-ward", "onDuty": "true"]))
            .map(\.agent.localName) == ["CareWorker-cal", "CareWorker-doc", "CareWorker-gil_m"])
        #expect(await fixture.pipeline.careWorkers.contains("gil m"))
        await fixture.stop()
        #expect(fixture.environment.directory.count == 0)
    }
}
