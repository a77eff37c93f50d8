import Foundation
import SADEMonitoring
import SADETestSupport
import SADETestTiming
import Testing

/// The API attacked by schemathesis (a property-based fuzzer, installed by `scripts/test`)
/// from the served OpenAPI document, once per role (anonymous callers get 401 before any
/// validation, as the access matrix tests show; schemathesis also fails to start without
/// credentials, trying to sign up on its own). Each role is a test case with a server of
/// its own: five shorter cases share the machine with the rest of the suite better than
/// one long one, which held the end of a run by minutes when it started late.
///
/// The coverage phase (boundary and invalid values of every parameter, most of the
/// requests) runs as the admin, who gets past the access checks to every operation's
/// validation; the other roles' runs (examples, fuzzing, stateful links) are about what
/// each may do and see. The cases start in the order of their arguments: the admin's,
/// ten times the requests of any other, goes first (queued last, it began 110 s after
/// the others and was the run's last test to end).
@Suite("The API under schemathesis", .timeLimit(.minutes(20)), .timed)
struct SchemathesisTests {
    @Test("""
        schemathesis with a role's token (5 examples an operation, deterministic): no 5xx, and no status, media type or \
        body outside the document
        """, arguments: ["admin", "patient", "device", "nurse", "doctor", "relative"])  // the admin's, the longest, first
    func role(_ role: String) async throws {
        try await TestTools.requirePython(modules: ["schemathesis"])
        try await ServerHarness.run(configure: {
            // Thousands of requests from one address: the per-client limits would answer most with 429.
            ($0.requestsPerSecond, $0.requestBurst, $0.requestsPerSecondPerAddress) = (1e6, 1e6, 1e6)
        }) { harness in
            let ward = try await AdminWard.seed(in: harness)
            let token = try #require(
                ["patient": ward.patient, "device": ward.device, "nurse": ward.nurse1, "doctor": ward.doctor1, "relative": ward.relative, "admin": ward.admin][role])
            let before = try await harness.system.audit.records.head().sequence
            let phases = role == "admin" ? "examples,coverage,fuzzing,stateful" : "examples,fuzzing,stateful"
            let arguments = [
                "-m", "schemathesis.cli", "run", "http://127.0.0.1:\(harness.port)/openapi.json", "--max-examples", "5", "--phases", phases,
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
            let requests = try await harness.system.audit.records.head().sequence - before
            print("schemathesis as \(role): \(requests) API calls")
            #expect(requests > (role == "admin" ? 2_500 : 300), "\(role): the run reached the server (\(requests) API calls)")
        }
    }
}
