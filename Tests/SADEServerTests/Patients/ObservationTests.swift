import Foundation
import SADETestTiming
import Testing
import SADEHealth
import SADEMonitoring

@Suite("Observations: ingestion and queries", .timeLimit(.minutes(5)), .timed)
struct ObservationTests {
    @Test("one sample or an array is validated, stored and read back, converted to canonical units")
    func ingestAndRead() async throws {
        try await ServerHarness.run { harness in
            let ward = try await Ward.seed(harness)
            let now = harness.system.now()
            let one = try await harness.request(
                .post, "/api/v1/patients/p-a/observations", token: ward.deviceSecret,
                json: Observation("heartRate", 72, unit: "count/min", at: now.addingTimeInterval(-60), device: "monitor A"))
            #expect(one.status == .created)
            #expect(one.object?["accepted"] as? Int == 1)
            let batch = try await harness.request(
                .post, "/api/v1/patients/p-a/observations", token: ward.deviceSecret,
                json: [
                    Observation("bodyTemperature", 100.4, unit: "degF", at: now.addingTimeInterval(-30)),
                    Observation("oxygenSaturation", 95, at: now.addingTimeInterval(-30)),
                    Observation("consciousnessLevel", 0, at: now.addingTimeInterval(-30)),
                ])
            #expect(batch.status == .created)
            #expect(batch.object?["accepted"] as? Int == 3)
            let stored = try await harness.system.health.samples(SampleQuery(.quantity(.bodyTemperature), patient: "p-a"), as: .system)
            #expect(stored.count == 1 && abs((stored[0].canonicalValue ?? 0) - 38.0) < 1e-9)

            let nurse = try await harness.login("nurse-a")
            let raw = try await harness.request(.get, "/api/v1/patients/p-a/observations?type=heartRate,bodyTemperature", token: nurse)
            #expect(raw.status == .ok)
            let rows = try #require(raw.array as? [[String: Any]])
            #expect(rows.map { $0["type"] as? String } == ["bodyTemperature", "heartRate"], "newest first")
            #expect(rows[0]["unit"] as? String == "degC")
            #expect(rows[1]["device"] as? String == "monitor A")
        }
    }

    @Test("bad observations are refused naming the field, and nothing of a bad batch is stored")
    func badObservations() async throws {
        try await ServerHarness.run { harness in
            let ward = try await Ward.seed(harness)
            let now = harness.system.now()
            func post(_ raw: String) async throws -> HarnessResponse {
                try await harness.request(.post, "/api/v1/patients/p-a/observations", token: ward.deviceSecret, raw: raw)
            }
            let at = now.formatted(.iso8601)
            let cases: [(String, String)] = [
                ("{\"type\": \"heartRate\", \"value\": 72}", "start"),
                ("{\"type\": \"heartRate\", \"value\": \"fast\", \"start\": \"\(at)\"}", "value"),
                ("{\"type\": \"heartbeat\", \"value\": 72, \"start\": \"\(at)\"}", "type"),
                ("{\"type\": \"heartRate\", \"value\": 72, \"unit\": \"furlongs\", \"start\": \"\(at)\"}", "unit"),
                ("{\"type\": \"heartRate\", \"value\": 72, \"start\": \"yesterday\"}", "start"),
                ("{\"type\": \"heartRate\", \"value\": 900, \"start\": \"\(at)\"}", "value"),
                ("{\"type\": \"heartRate\", \"value\": 72, \"unit\": \"mmHg\", \"start\": \"\(at)\"}", "unit"),
                ("{\"type\": \"heartRate\", \"value\": 72, \"start\": \"\(now.addingTimeInterval(3600).formatted(.iso8601))\"}", "start"),
                ("[{\"type\": \"heartRate\", \"value\": 72, \"start\": \"\(at)\"}, {\"type\": \"heartRate\", \"value\": -1, \"start\": \"\(at)\"}]", "[1].value"),
                ("{\"type\": \"heartRate\", \"value\": 72, \"start\": \"\(at)\", \"end\": \"9999-01-01T00:00:00Z\"}", "end"),
                ("{\"type\": \"heartRate\", \"value\": 72, \"start\": \"\(at)\", \"end\": \"2000-01-01T00:00:00Z\"}", "end"),
                ("[]", "no observations"),
                ("not json", "JSON"),
            ]
            for (body, field) in cases {
                let response = try await post(body)
                #expect(response.status == .badRequest, "\(body)")
                #expect(response.errorMessage?.contains(field) == true, "\(body) → \(response.errorMessage ?? response.text)")
            }
            let stored = try await harness.system.health.samples(SampleQuery(.quantity(.heartRate), patient: "p-a"), as: .system)
            #expect(stored.isEmpty, "the good half of the bad batch was not stored")
        }
    }

    @Test("bucketed queries aggregate per bucket; bad parameters are refused")
    func buckets() async throws {
        try await ServerHarness.run { harness in
            let ward = try await Ward.seed(harness)
            let start = harness.system.now().addingTimeInterval(-3600)
            let body = (0..<60).map { Observation("heartRate", Double(60 + $0), at: start.addingTimeInterval(Double($0) * 60)) }
            #expect(try await harness.request(.post, "/api/v1/patients/p-a/observations", token: ward.deviceSecret, json: body).status == .created)
            let admin = try await harness.login("admin")
            let from = start.formatted(.iso8601), to = start.addingTimeInterval(3600).formatted(.iso8601)
            let response = try await harness.request(
                .get, "/api/v1/patients/p-a/observations?type=heartRate&bucket=15m&from=\(from)&to=\(to)", token: admin)
            #expect(response.status == .ok)
            let series = try #require((response.array as? [[String: Any]])?.first)
            let buckets = try #require(series["buckets"] as? [[String: Any]])
            #expect(buckets.map { $0["count"] as? Int } == [15, 15, 15, 15])
            #expect(buckets.first?["minimum"] as? Double == 60 && buckets.first?["maximum"] as? Double == 74)
            #expect(buckets.last?["average"] as? Double == 112)
            let repeated = try await harness.request(.get, "/api/v1/patients/p-a/observations?type=heartRate,heartRate&limit=5", token: admin)
            #expect((repeated.array ?? []).count == 5, "a repeated type is read once; the limit holds across types")
            for query in ["type=" + Array(repeating: "heartRate", count: 17).joined(separator: ","), "bucket=soon", "type=nope", "limit=0", "from=\(to)&to=\(from)", "bucket=1s&from=2000-01-01T00:00:00Z"] {
                let bad = try await harness.request(.get, "/api/v1/patients/p-a/observations?\(query)", token: admin)
                #expect(bad.status == .badRequest, "\(query)")
                #expect(bad.errorCode == "invalid-parameter")
            }
        }
    }

    @Test("a batch over the limit is refused with 413")
    func batchLimit() async throws {
        try await ServerHarness.run(configure: { $0.maxBatchSamples = 10 }) { harness in
            let ward = try await Ward.seed(harness)
            let now = harness.system.now()
            let body = (0..<11).map { Observation("heartRate", 70, at: now.addingTimeInterval(Double(-$0))) }
            let response = try await harness.request(.post, "/api/v1/patients/p-a/observations", token: ward.deviceSecret, json: body)
            #expect(response.status == .contentTooLarge)
        }
    }
}
