import Foundation
import SADEMonitoring
import SADETestSupport
import SADETestTiming
import Testing

/// The API attacked by schemathesis (a property-based fuzzer, installed by `scripts/test`)
/// from the served OpenAPI document, once per role (anonymous callers get 401 before any
/// validation, as the access matrix tests show; schemathesis also fails to start without
/// credentials, trying to sign up on its own). The five roles' runs go side by side in one
/// test: fuzzing mostly waits on the server, and one place to run is enough for them all.
@Suite("The API under schemathesis", .timeLimit(.minutes(20)), .timed)
struct SchemathesisTests {
    @Test("""
        schemathesis with each role's token (5 examples an operation, deterministic): no 5xx, and no status, media type or \
        body outside the document
        """)
    func everyRole() async throws {
        try await TestTools.requirePython(modules: ["schemathesis"])
        try await ServerHarness.run(configure: {
            // Thousands of requests from one address: the per-client limits would answer most with 429.
            ($0.requestsPerSecond, $0.requestBurst, $0.requestsPerSecondPerAddress) = (1e6, 1e6, 1e6)
        }) { harness in
            let ward = try await AdminWard.seed(in: harness)
            let callers: [(String, String)] = [
                ("patient", ward.patient), ("device", ward.device), ("nurse", ward.nurse1),
                ("doctor", ward.doctor1), ("admin", ward.admin),
            ]
            let before = try await harness.system.audit.records.head().sequence
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (role, token) in callers {
                    group.addTask {
                        let arguments = [
                            "-m", "schemathesis.cli", "run", "http://127.0.0.1:\(harness.port)/openapi.json", "--max-examples", "5",
                            "--checks", "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance",
                            // Live streams never end; a password change would end the caller's own session midway.
                            "--exclude-path", "/api/v1/events", "--exclude-path", "/api/v1/users/{id}/password",
                            "--exclude-operation-id", "agentEvents", "--exclude-operation-id", "sniffMessages",
                            // Answers are judged, not timed (a loaded machine is slow, not wrong).
                            "--request-timeout", "60", "--seed", "1", "--generation-deterministic",
                            "--no-color", "--workers", "1", "--header", "Authorization: Bearer \(token)",
                        ]
                        let run = try await SadeProcess.python(arguments, modules: ["schemathesis"])
                        let summary = run.output.split(separator: "\n").suffix(40).joined(separator: "\n")
                        #expect(run.status == 0, "\(role):\n\(run.output.suffix(6000))\(run.error.suffix(2000))")
                        let tested = run.output.split(separator: "\n").first { $0.contains("Tested:") }
                        #expect(tested.flatMap { Int($0.split(separator: " ").last ?? "") }.map { $0 >= 60 } == true, "\(role): \(summary)")
                    }
                }
                try await group.waitForAll()
            }
            let requests = try await harness.system.audit.records.head().sequence - before
            #expect(requests > 5_000, "the runs reached the server (\(requests) API calls)")
        }
    }
}
