import Foundation
import Testing
import SADEMonitoring

@Suite("Health check and Prometheus metrics")
struct OperationsTests {
    @Test("/health answers without a token; /metrics counts requests by status and the samples accepted")
    func healthAndMetrics() async throws {
        try await ServerHarness.run { harness in
            let ward = try await Ward.seed(harness)
            let health = try await harness.request(.get, "/health")
            #expect(health.status == .ok)
            #expect(health.object?["status"] as? String == "ok")
            let body = [Observation("heartRate", 70, at: harness.system.now()), Observation("heartRate", 71, at: harness.system.now())]
            #expect(try await harness.request(.post, "/api/v1/patients/p-a/observations", token: ward.deviceSecret, json: body).status == .created)
            #expect(try await harness.request(.get, "/api/v1/patients").status == .unauthorized)
            let metrics = try await harness.request(.get, "/metrics")
            #expect(metrics.status == .ok)
            #expect(metrics.headers[.contentType]?.hasPrefix("text/plain") == true)
            let lines = metrics.text.split(separator: "\n")
            #expect(lines.contains("sade_samples_accepted_total 2"))
            #expect(lines.contains("sade_http_requests_total{method=\"POST\",status=\"2xx\"} 1"))
            #expect(lines.contains("sade_http_requests_total{method=\"GET\",status=\"4xx\"} 1"))
            #expect(lines.contains { $0.hasPrefix("sade_http_request_duration_seconds_bucket{method=\"GET\"") })
        }
    }
}
