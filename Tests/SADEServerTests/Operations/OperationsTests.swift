import Foundation
import SADETestTiming
import Testing
import SADEMonitoring

@Suite("Health check and Prometheus metrics", .timeLimit(.minutes(5)), .timed)
struct OperationsTests {
    @Test("""
        /health answers without a token; /metrics shows requests by route and status (Hummingbird's MetricsMiddleware) \
        and what an operator watches: samples accepted, pipeline lag, agents alive, messages delivered, mailboxes, alerts open, outbox pending
        """)
    func healthAndMetrics() async throws {
        try await ServerHarness.run { harness in
            let ward = try await Ward.seed(harness)
            let health = try await harness.request(.get, "/health")
            #expect(health.status == .ok)
            #expect(health.object?["status"] as? String == "ok")
            let body = [Observation("heartRate", 70, at: harness.system.now()), Observation("heartRate", 71, at: harness.system.now())]
            #expect(try await harness.request(.post, "/api/v1/patients/p-a/observations", token: ward.deviceSecret, json: body).status == .created)
            #expect(try await harness.request(.get, "/api/v1/patients").status == .unauthorized)
            await harness.system.pipeline.settle()
            let observations = #"http_route="/api/v1/patients/{id}/observations",http_request_method="POST",http_response_status_code="201""#
            let refused = #"http_route="/api/v1/patients",http_request_method="GET",http_response_status_code="401""#
            // Hummingbird counts a request once its answer is written: the client may read
            // the answer first. Ask again (a few times at most) until both are counted.
            var metrics = try await harness.request(.get, "/metrics")
            var values = Self.values(metrics.text)
            for _ in 0..<20 where values["hb_requests{\(observations)}"] == nil || values["hb_requests{\(refused)}"] == nil {
                metrics = try await harness.request(.get, "/metrics")
                values = Self.values(metrics.text)
            }
            #expect(metrics.status == .ok)
            #expect(metrics.headers[.contentType]?.hasPrefix("text/plain") == true)
            #expect(values["sade_samples_accepted_total"] == 2)
            #expect(values["hb_requests{\(observations)}"] == 1)
            #expect(values[#"hb_requests{http_route="/api/v1/patients",http_request_method="GET",http_response_status_code="401"}"#] == 1)
            #expect(values["http_server_request_duration_count{\(observations)}"] == 1)
            #expect(values["http_server_request_duration_count{\(refused)}"] == 1, "error answers are timed too")
            #expect(values["sade_pipeline_lag_seconds_count", default: 0] >= 1)
            #expect(values[#"sade_agents_alive{platform="hospital"}"#, default: 0] >= 3, "the collector, anomalies and alert agents")
            #expect(values[#"sade_messages_delivered_total{platform="hospital"}"#, default: 0] >= 2, "a batch and its confirmation")
            #expect(values[#"sade_mailbox_messages{platform="hospital"}"#] != nil)
            #expect(values["sade_alerts_open"] == 0)
            #expect(values["sade_outbox_pending"] == 0)
        }
    }

    /// Each sample line of a Prometheus text exposition: its name with labels, and its value.
    static func values(_ text: String) -> [String: Double] {
        var values: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
            values[String(line[..<space])] = value
        }
        return values
    }
}
