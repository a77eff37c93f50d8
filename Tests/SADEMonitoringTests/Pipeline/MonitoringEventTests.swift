import Foundation
import SADEHealth
import SADEMonitoring
import SADENotification
import Synchronization
import SADETestTiming
import Testing

@Suite("Live events", .timeLimit(.minutes(5)), .timed)
struct MonitoringEventTests {
    static let date = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("events are JSON objects with a type discriminator and the payload's fields, and read back equal")
    func jsonRoundTrip() throws {
        let alert = AlertRecord(
            id: UUID(), patient: "p-1", sector: "icu", category: .clinical, severity: .alarm, title: "NEWS2 8 (high): Ana",
            message: "m", raisedAt: Self.date, assignee: "amy", escalations: [AlertEscalation(step: 0, at: Self.date, recipients: ["user:amy"], notice: UUID())])
        let samples = SamplesEvent(
            patient: "p-1", sector: "icu",
            samples: [.bloodPressure(systolic: 120, diastolic: 80, patient: "p-1", at: Self.date), .category(.consciousnessLevel, 0, patient: "p-1", at: Self.date)])
        let score = try NEWS2Score(NEWS2Observations(respirationRate: 25, pulse: 80))
        let events: [MonitoringEvent] = [
            .alert(alert), .acknowledged(alert), .escalated(alert), .samples(samples),
            .news2(NEWS2Event(patient: "p-1", sector: "icu", score: score, at: Self.date)),
        ]
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        for event in events {
            let data = try encoder.encode(event)
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(object["type"] as? String == event.type)
            #expect(object["patient"] as? String == "p-1")
            #expect(try decoder.decode(MonitoringEvent.self, from: data) == event)
        }
        #expect(samples.observations.map(\.type) == ["bloodPressureSystolic", "bloodPressureDiastolic", "consciousnessLevel"])
        #expect(samples.observations.map(\.unit) == ["mmHg", "mmHg", nil])
        #expect(throws: DecodingError.self) { try decoder.decode(MonitoringEvent.self, from: Data(#"{"type": "gossip"}"#.utf8)) }
    }

    @Test("a subscriber that does not keep up keeps only the newest events, and the others get everything")
    func slowSubscribersAreBounded() async {
        let hub = MonitoringEventHub()
        let slow = hub.subscribe(buffer: 3)
        let fast = hub.subscribe(buffer: 100)
        #expect(hub.subscriberCount == 2)
        let published = (0..<10).map { MonitoringEvent.samples(SamplesEvent(patient: PatientID("p-\($0)"), sector: nil, samples: [])) }
        published.forEach(hub.publish)
        hub.finishAll()
        var slowSeen: [MonitoringEvent] = [], fastSeen: [MonitoringEvent] = []
        for await event in slow { slowSeen.append(event) }
        for await event in fast { fastSeen.append(event) }
        #expect(slowSeen == Array(published.suffix(3)))
        #expect(fastSeen == published)
    }

    @Test("the relay to other nodes is told of every event, however many: the 200,000th call costs what the first did")
    func relayOfManyEvents() {
        // Kept as a bare closure in a Mutex, the relay came back wrapped in two more thunks
        // at each call: the 200,000th would have gone through 400,000 of them (or overflowed the stack).
        let hub = MonitoringEventHub()
        let told = Mutex(0)
        hub.relay { _ in told.withLock { $0 += 1 } }
        let event = MonitoringEvent.samples(SamplesEvent(patient: "p-1", sector: nil, samples: []))
        for _ in 0..<200_000 { hub.publish(event) }
        #expect(told.withLock { $0 } == 200_000)
    }
}
