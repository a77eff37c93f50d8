import Foundation
import SADETestTiming
import Testing
@testable import SADEServer

@Suite("Observation bodies: read without Codable, errors naming the field", .timeLimit(.minutes(5)), .timed)
struct ObservationBatchTests {
    private func decode(_ text: String) throws(APIError) -> ObservationBatch {
        try ObservationBatch.decode(Array(text.utf8))
    }

    private func message(_ text: String) -> String? {
        do {
            _ = try decode(text)
            return nil
        } catch {
            #expect(error.code == "invalid-body", "\(text)")
            return error.message
        }
    }

    @Test("an object or an array; unknown members skipped; null optional members absent; escapes resolved")
    func reads() throws {
        let one = try decode(#"{"type": "heartRate", "value": 72.5, "start": "2026-11-23T10:00:00Z", "extra": {"a": [1, true, null]}}"#)
        #expect(!one.isArray && one.observations.count == 1)
        #expect(one.observations[0].type == "heartRate" && one.observations[0].value == 72.5)
        #expect(one.observations[0].start == Date(timeIntervalSince1970: 1_795_428_000))
        #expect(one.observations[0].unit == nil && one.observations[0].end == nil && one.observations[0].device == nil)

        let two = try decode(
            #" [ {"type":"bodyTemperature","value":-1e1,"unit":null,"start":"2026-11-23T10:00:00.250Z","end":"2026-11-23T10:00:01Z","device":"w\u00e4tch \"7\""},"#
                + #"{"type":"respiratoryRate","value":18,"unit":"count/min","start":"2026-11-23T10:00:00Z"} ] "#)
        #expect(two.isArray && two.observations.map(\.type) == ["bodyTemperature", "respiratoryRate"])
        #expect(two.observations[0].value == -10 && two.observations[0].device == "wätch \"7\"")
        #expect(two.observations[0].start.timeIntervalSince1970.truncatingRemainder(dividingBy: 1) == 0.25)
        #expect(two.observations[0].end == Date(timeIntervalSince1970: 1_795_428_001))
        #expect(two.observations[1].unit == "count/min")
        #expect(try decode("[]").observations.isEmpty)
    }

    @Test("a value that does not fit is named by its path")
    func namesTheField() {
        let at = "2026-11-23T10:00:00Z"
        #expect(message(#"{"value": 72, "start": "\#(at)"}"#) == "type: is missing")
        #expect(message(#"{"type": "heartRate", "start": "\#(at)"}"#) == "value: is missing")
        #expect(message(#"{"type": "heartRate", "value": null, "start": "\#(at)"}"#) == "value: should be a number, not null")
        #expect(message(#"{"type": "heartRate", "value": "72", "start": "\#(at)"}"#) == "value: should be a number")
        #expect(message(#"{"type": 7, "value": 72, "start": "\#(at)"}"#) == "type: should be a string")
        #expect(message(#"[{"type": "heartRate", "value": 1, "start": "\#(at)"}, {"type": "heartRate", "value": 1}]"#) == "body[1].start: is missing")
        #expect(message(#"[{"type": "heartRate", "value": 1, "start": "today"}]"#) == "body[0].start: is not an ISO 8601 date-time: today")
    }

    @Test("text that is not JSON, or more than one document, is refused as such")
    func refusesSyntax() {
        for text in ["not json", #"{"type": "heartRate", "value": 72"#, #"[{"type": "heartRate", "value": 1, "start": "2026-11-23T10:00:00Z"}"#, #"{"type": "heartRate", "value": 72, "start": "2026-11-23T10:00:00Z"} {}"#, #"{"value": 1e999}"#, "\"x\""] {
            let text = message(text)
            #expect(text?.hasPrefix("the body is not valid JSON") == true || text?.contains("should be a number") == true, "\(text ?? "accepted")")
        }
        #expect(message("")?.contains("empty") == true)
    }
}
