import Foundation
import SADECore
import SADEHealth
@testable import SADEMonitoring
import SADETestTiming
import Testing

@Suite("The pipeline's agents as SADE4Health §5.3.2 instantiates them: beliefs, goals, plans, actions", .timeLimit(.minutes(3)), .timed)
struct PipelineAgentsTests {
    /// Reads an agent's events until `matches` holds for one.
    static func await(_ events: inout AsyncStream<AgentEvent>.Iterator, _ matches: (AgentEvent) -> Bool) async -> AgentEvent? {
        while let event = await events.next() {
            if matches(event) { return event }
        }
        return nil
    }

    static func achieved(_ goal: String, _ plan: String) -> (AgentEvent) -> Bool {
        { event in
            guard case .planStatusChanged(goal, plan, .achieved) = event else { return false }
            return true
        }
    }

    @Test("each agent knows whom to tell, and a racing heart goes through the CollectPlan, the AnomaliesPlan and the AlertPlan")
    func samplesGoThroughTheThreePlans() async throws {
        let fixture = try PipelineFixture.make(rules: AlertRules(outOfRangeSeverity: .warning))
        try await Ward.seed(fixture.store, patients: [Ward.patient("patient-08", in: "covid-ward")])
        let pipeline = fixture.pipeline
        #expect(await pipeline.collector.agent.beliefs[.anomaliesAgent] == pipeline.anomalies.agent.identifier)
        #expect(await pipeline.anomalies.agent.beliefs[.alertAgent] == pipeline.alerts.agent.identifier)
        #expect(await pipeline.collector.agent.goals.map(\.name) == [CollectorAgent.collectGoal, CollectorAgent.announcedDataGoal])
        #expect(await pipeline.collector.agent.goal(named: CollectorAgent.collectGoal)?.plans.map(\.name) == ["CollectPlan"])
        #expect(await pipeline.anomalies.agent.goal(named: AnomaliesAgent.anomaliesGoal)?.plans.first?.actions.first is AnomaliesAction)
        #expect(await pipeline.alerts.agent.goal(named: AlertAgent.alertGoal)?.plans.first?.actions.first is AlertAction)

        var collecting = await pipeline.collector.agent.events().makeAsyncIterator()
        var evaluating = await pipeline.anomalies.agent.events().makeAsyncIterator()
        var alerting = await pipeline.alerts.agent.events().makeAsyncIterator()
        try await fixture.start()
        try await fixture.store.save(.quantity(.heartRate, 142, patient: "patient-08", at: Ward.epoch), as: .system)
        pipeline.wake()
        await pipeline.settle()

        #expect(await Self.await(&collecting, Self.achieved(CollectorAgent.announcedDataGoal, "CollectPlan, at once")) != nil)
        #expect(await Self.await(&evaluating, Self.achieved(AnomaliesAgent.anomaliesGoal, "AnomaliesPlan")) != nil)
        #expect(await Self.await(&alerting, Self.achieved(AlertAgent.alertGoal, "AlertPlan")) != nil)
        let alerts = try await pipeline.book.alerts(patients: ["patient-08"])
        #expect(alerts.map(\.assignee) == ["cal"], "the Contract Net among the ward's nurses on duty: cal and dan tie at no load; cal is first")
        // Once the plans are done, nothing received is left: the maintain goals hold again.
        #expect(await pipeline.anomalies.agent.beliefs[.batchesReceived] == [])
        #expect(await pipeline.alerts.agent.beliefs[.anomaliesReceived] == [])
        #expect(await pipeline.collector.agent.beliefs[.newDataAnnounced] == false)
        await fixture.stop()
    }

    @Test("while another node evaluates, batches are confirmed by the other plan and evaluated by nobody here")
    func aNodeThatDoesNotEvaluateLeavesTheBatches() async throws {
        let fixture = try PipelineFixture.make(rules: AlertRules(outOfRangeSeverity: .warning))
        try await Ward.seed(fixture.store, patients: [Ward.patient("patient-08", in: "covid-ward")])
        let pipeline = fixture.pipeline
        try await fixture.start()
        var evaluating = await pipeline.anomalies.agent.events().makeAsyncIterator()
        let batch = SampleBatch(samples: [.quantity(.heartRate, 142, patient: "patient-08", at: Ward.epoch)], anchors: [:])
        pipeline.gate.close()
        pipeline.collector.agent.send(try batch.inform(pipeline.anomalies.agent.identifier))
        #expect(await Self.await(&evaluating, Self.achieved(AnomaliesAgent.anomaliesGoal, "leave the batches to the evaluating nodes")) != nil)
        await pipeline.settle()
        #expect(try await pipeline.book.alerts().isEmpty, "the 142/min was left to the node that evaluates")
        #expect(await pipeline.latestNEWS2.isEmpty)
        await fixture.stop()
    }

    @Test("""
        a patient whose shard another node took is forgotten here: no silent-device alarm for them from this node; once \
        the shard is back, they are watched again from then on
        """)
    func aGivenUpShardsPatientsAreForgotten() async throws {
        let fixture = try PipelineFixture.make(rules: AlertRules(outOfRangeSeverity: .warning))
        let patient: PatientID = "patient-08"
        try await Ward.seed(fixture.store, patients: [Ward.patient(patient, in: "covid-ward")])
        let pipeline = fixture.pipeline
        try await fixture.start()
        var evaluating = await pipeline.anomalies.agent.events().makeAsyncIterator()
        /// Moves the clock on and returns once the missing-data check it made due has run.
        func check(after time: Duration) async {
            fixture.clock.advance(by: time)
            _ = await Self.await(&evaluating, Self.achieved(AnomaliesAgent.anomaliesGoal, "AnomaliesPlan"))
            await pipeline.settle()
        }
        try await fixture.store.save(.quantity(.heartRate, 72, patient: patient, at: Ward.epoch), as: .system)
        pipeline.wake()
        await pipeline.settle()
        #expect(await pipeline.latestNEWS2[patient] != nil, "evaluated here")

        let shard = PatientShards([PatientShards.shard(of: patient)])
        pipeline.gate.close(shard)  // another node took it: the patient's readings go there
        await check(after: .seconds(20 * 60))
        #expect(try await pipeline.book.alerts(patients: [patient]).isEmpty, "no alarm from a node that no longer evaluates the patient")
        #expect(await pipeline.latestNEWS2[patient] == nil, "the score published here is forgotten")

        pipeline.gate.open(shard, until: .distantFuture)  // back here, the patient silent since
        await check(after: .seconds(60))
        #expect(try await pipeline.book.alerts(patients: [patient]).isEmpty, "watched from now on, not from before")
        await check(after: .seconds(16 * 60))
        let alerts = try await pipeline.book.alerts(patients: [patient])
        #expect(alerts.map(\.category) == [.device], "silent for longer than the limit while evaluated here: \(alerts.map(\.title))")
        await fixture.stop()
    }

    @Test("a batch read before its shard was given up is evaluated only for the shards still held; the others' anchors stay for the next holder")
    func aBatchOfAGivenUpShard() async throws {
        let fixture = try PipelineFixture.make(rules: AlertRules(outOfRangeSeverity: .warning))
        let ids = (0...).lazy.map { PatientID(rawValue: "patient-\($0)") }
        let gone = try #require(ids.first { PatientShards.shard(of: $0) == 3 })
        let kept = try #require(ids.first { PatientShards.shard(of: $0) == 4 })
        try await Ward.seed(fixture.store, patients: [Ward.patient(gone, in: "covid-ward"), Ward.patient(kept, in: "covid-ward")])
        let pipeline = fixture.pipeline
        try await fixture.start()
        let anchors = ["HeartRate": HealthAnchor(rawValue: 42)]
        let batch = SampleBatch(
            samples: [.quantity(.heartRate, 142, patient: gone, at: Ward.epoch), .quantity(.heartRate, 143, patient: kept, at: Ward.epoch)],
            anchors: anchors, shards: PatientShards([3, 4]))
        pipeline.gate.close(PatientShards([3]))  // given up after the batch was read
        pipeline.collector.agent.send(try batch.inform(pipeline.anomalies.agent.identifier))
        try await until { try await pipeline.book.alerts(patients: [kept]).count == 1 }
        await pipeline.settle()
        #expect(try await pipeline.book.alerts(patients: [gone]).isEmpty, "left to the shard's new holder")
        let scored = await pipeline.latestNEWS2
        #expect(scored[gone] == nil && scored[kept] != nil)
        let reached = try await pipeline.anomalies.evaluator.anchors.anchors(of: PatientShards([3, 4]))
        #expect(reached[4]?["HeartRate"] == HealthAnchor(rawValue: 42), "the shard still held moves on")
        #expect(reached[3]?["HeartRate"] == nil, "the one given up stays where its next holder starts")
        await fixture.stop()
    }
}
