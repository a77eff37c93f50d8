import Foundation
import SADEACL
import SADECore
import SADEHealth
import SADETestTiming
import Testing

@Suite("AnomaliesAction inside an agent", .timeLimit(.minutes(3)), .timed)
struct AnomaliesActionTests {
    private let epoch = Date(timeIntervalSince1970: 1_700_000_000)
    private let ana: PatientID = "ana"

    /// A batch with a respiration rate of 25 nine minutes after the epoch: out of
    /// range, and a NEWS2 red flag.
    private var batch: AnomaliesAction.Batch {
        ([.quantity(.respiratoryRate, 25, patient: ana, at: epoch.addingTimeInterval(540))], [ana: Patient(id: ana, name: "Ana")])
    }

    @Test("the AnomaliesAgent informs the AlertAgent of each anomaly in JSON, at the platform clock's time")
    func informsAlertAgent() async throws {
        let clock = ManualClock()
        let platform = Environment(name: "ward", clock: clock)
        let (messages, received) = AsyncStream.makeStream(of: ACLMessage.self)
        let alertAgent = Agent("AlertAgent", on: platform) {
            MessageHandler.on(.inform) { _, message in received.yield(message) }
        }
        let batch = batch
        let action = AnomaliesAction(detector: AnomalyDetector(), epoch: epoch, informing: "AlertAgent") { _ in batch }
        let anomaliesAgent = Agent("AnomaliesAgent", on: platform, runBDICycleOnStart: true) {
            Goal("detect anomalies") { Plan("check new data") { action } }
        }
        try await alertAgent.start()
        clock.advance(by: .seconds(600))  // the action's now: ten minutes after the epoch
        try await anomaliesAgent.start()

        var anomalies: [Anomaly] = []
        for await message in messages {
            #expect(message.performative == .inform)
            #expect(message.language == "json")
            #expect(message.ontology == "sade-anomaly")
            #expect(message.sender?.localName == "AnomaliesAgent")
            anomalies.append(try Anomaly(message: message))
            if anomalies.count == 2 { break }
        }
        #expect(anomalies.map(\.kind) == [.outOfRange(.respiratoryRate), .news2])
        #expect(anomalies.first?.time == epoch.addingTimeInterval(540), "the reading's time")
        #expect(anomalies.last?.time == epoch.addingTimeInterval(600), "NEWS2 at the action's now")
        #expect(anomalies.last?.score?.band == .lowMedium)
        #expect(anomalies.allSatisfy { $0.patient == ana && $0.phase == .onset })
        await anomaliesAgent.stop()
        await alertAgent.stop()
    }

    @Test("with a closure, the anomalies are handed over in one call; nothing found, no call")
    func reportsToClosure() async throws {
        let clock = ManualClock()
        let platform = Environment(name: "ward", clock: clock)
        clock.advance(by: .seconds(600))  // the platform clock starts when the platform is created
        let (reports, reported) = AsyncStream.makeStream(of: [Anomaly].self)
        let batches = [batch, ([], [:])]
        let detector = AnomalyDetector()
        func action(_ batch: AnomaliesAction.Batch) -> AnomaliesAction {
            AnomaliesAction(detector: detector, epoch: epoch, batch: { _ in batch }) { anomalies, _ in reported.yield(anomalies) }
        }
        let agent = Agent("AnomaliesAgent", on: platform) {
            Goal("first batch") { Plan { action(batches[0]) } }
            Goal("quiet batch") { Plan { action(batches[1]) } }
        }
        let events = await agent.events()
        try await agent.start()
        await agent.runBDICycle()

        var finished: Set<String> = []
        for await event in events {
            if case .goalStatusChanged(let goal, .achieved) = event { finished.insert(goal) }
            if finished == ["first batch", "quiet batch"] { break }
        }
        reported.finish()
        var calls: [[Anomaly]] = []
        for await anomalies in reports { calls.append(anomalies) }
        #expect(calls.count == 1, "the quiet batch reports nothing")
        #expect(calls.first?.map(\.kind) == [.outOfRange(.respiratoryRate), .news2])
        await agent.stop()
    }

    @Test("an anomaly survives the trip through an ACL message; other content is refused")
    func messageRoundTrip() async throws {
        let detector = AnomalyDetector()
        let anomalies = await detector.evaluate(batch.samples, patients: batch.patients, at: epoch.addingTimeInterval(600))
        for anomaly in anomalies {
            let message = try anomaly.inform("AlertAgent")
            #expect(try Anomaly(message: message) == anomaly)
            #expect(message.content?.contains("\"kind\":\"\(anomaly.kind)\"") == true)
        }
        #expect(throws: HealthError.self) { try Anomaly(message: ACLMessage(.inform, content: "(fire)")) }
        #expect(throws: HealthError.self) { try Anomaly(message: ACLMessage(.inform)) }
    }
}
