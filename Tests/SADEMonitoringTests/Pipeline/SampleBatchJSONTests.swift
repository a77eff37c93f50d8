import Foundation
import SADEACL
import SADEHealth
import SADETestTiming
import Testing
@testable import SADEMonitoring

/// The pipeline's hand-written batch codec writes and reads exactly the batch's
/// `Codable` form: either side reads the other's output, and every kind of sample
/// comes back equal.
@Suite("SampleBatch JSON: the Codable form, by hand", .timeLimit(.minutes(5)), .timed)
struct SampleBatchJSONTests {
    static let start = Date(timeIntervalSince1970: 1_795_000_000.123)

    /// Every kind of value, awkward strings and numbers.
    static let batch = SampleBatch(
        samples: [
            .quantity(.heartRate, 72, patient: "patient-01", at: start, device: "monitor \"7\"", metadata: ["note": "tab\there\\ \u{01} é 漢"]),
            .quantity(.bodyTemperature, 97.7, .degreeFahrenheit, patient: "p", at: start, end: start.addingTimeInterval(0.001)),
            .quantity(.oxygenSaturation, 1e-05, patient: "p", at: start, source: "agent/collector"),
            .category(.consciousnessLevel, 0, patient: "p", at: start),
            .bloodPressure(systolic: 121, diastolic: 79.5, patient: "p", at: start, device: "cuff"),
            HealthSample(
                patient: "p", type: .electrocardiogram,
                value: .electrocardiogram(Electrocardiogram(samplingFrequency: 512, lead: "II", voltages: [0.1, -2.5, 1e6, 0], averageHeartRate: 61)),
                start: start, end: start.addingTimeInterval(30)),
            HealthSample(
                patient: "p", type: .electrocardiogram, value: .electrocardiogram(Electrocardiogram(samplingFrequency: 1, voltages: [])), start: start),
        ],
        anchors: ["heartRate": HealthAnchor(rawValue: 42), "bloodPressure": HealthAnchor(rawValue: 9_007_199_254)])

    @Test("a batch with every kind of sample comes back equal through the ACL message")
    func roundTrip() throws {
        let message = try Self.batch.inform(AgentIdentifier(name: "anomalies"))
        #expect(try SampleBatch(message: message) == Self.batch)
    }

    @Test("JSONDecoder reads what the codec writes, and the codec reads what JSONEncoder writes")
    func compatibleWithCodable() throws {
        let ours = try SampleBatchJSON.encode(Self.batch)
        #expect(try JSONDecoder().decode(SampleBatch.self, from: Data(ours.utf8)) == Self.batch)
        let theirs = String(decoding: try JSONEncoder().encode(Self.batch), as: UTF8.self)
        #expect(try SampleBatchJSON.decode(theirs) == Self.batch)
    }

    @Test("malformed content is refused naming the place, never a crash")
    func malformed() throws {
        let good = try SampleBatchJSON.encode(Self.batch)
        let cases: [(String, String)] = [
            ("", "expected an object"), ("[]", "expected an object"), (#"{"id": "x", "anchors": {}, "samples": []}"#, "id"),
            (good.replacingOccurrences(of: #""heartRate""#, with: #""pulse""#), "type"),
            (good.replacingOccurrences(of: #""count/min""#, with: #""furlongs""#), "unit"),
            (good.replacingOccurrences(of: #""_0":0"#, with: #""_0":0.5"#), "category"),
            (good.replacingOccurrences(of: #"{"quantity""#, with: #"{"volume""#), "unknown case"),
            (String(good.dropLast(3)), "expected"),
        ]
        for (content, place) in cases {
            let message = ACLMessage(.inform, content: content, ontology: SampleBatch.aclOntology)
            #expect(throws: HealthError.self, "\(place)") { try SampleBatch(message: message) }
            do {
                _ = try SampleBatchJSON.decode(content)
                Issue.record("\(place): decoded")
            } catch {
                #expect(error.description.contains(place), "\(error.description) should name \(place)")
            }
        }
        // Every cut of a good document is refused, none crashes.
        for length in stride(from: 0, to: good.utf8.count - 1, by: 7) {
            #expect(throws: SampleBatchJSON.Malformed.self) { try SampleBatchJSON.decode(String(decoding: good.utf8.prefix(length), as: UTF8.self)) }
        }
        // Nesting is bounded: no stack exhaustion on a hostile document.
        #expect(throws: SampleBatchJSON.Malformed.self) {
            try SampleBatchJSON.decode(#"{"x":"# + String(repeating: "[", count: 100_000))
        }
        var infinite = Self.batch
        infinite.samples = [.quantity(.heartRate, .infinity, patient: "p", at: Self.start)]
        #expect(throws: SampleBatchJSON.Malformed.self) { try SampleBatchJSON.encode(infinite) }
    }

    @Test("JSON escapes other writers use are read: \\u with surrogate pairs, \\/, unknown members skipped")
    func escapesAndUnknownMembers() throws {
        let text = #"{"id":"0192F0A4-7B1C-7C3D-8E4F-5A6B7C8D9E0F","extra":[true,null,{"a":-1.5e3}],"anchors":{},"samples":[{"id":"0192F0A4-7B1C-7C3D-8E4F-5A6B7C8D9E10","patient":"caf\u00e9 \ud83d\ude00 a\/b","type":"heartRate","value":{"quantity":{"_0":{"value":72,"unit":"count\/min"}}},"start":0,"end":0.5,"metadata":{}}]}"#
        let batch = try SampleBatchJSON.decode(text)
        #expect(batch.samples.first?.patient.rawValue == "café 😀 a/b")
        #expect(batch.samples.first?.end == Date(timeIntervalSinceReferenceDate: 0.5))
    }
}
