import Foundation
import SADETestTiming
import Testing
import SADEServer

@Suite("The OpenAPI document", .timeLimit(.minutes(5)), .timed)
struct OpenAPIDocumentTests {
    /// The document as the running server serves it.
    static func served(by harness: ServerHarness) async throws -> (response: HarnessResponse, document: [String: Any]) {
        let response = try await harness.request(.get, "/openapi.json")
        return (response, try #require(response.object, "the body is a JSON object: \(response.text.prefix(200))"))
    }

    @Test("GET /openapi.json serves an OpenAPI 3 document as JSON, to anyone")
    func served() async throws {
        try await ServerHarness.run { harness in
            let (response, document) = try await Self.served(by: harness)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
            #expect((document["openapi"] as? String)?.hasPrefix("3.") == true)
            let info = try #require(document["info"] as? [String: Any])
            #expect(info["title"] as? String == "SADE remote patient monitoring API")
            let schemes = (document["components"] as? [String: Any])?["securitySchemes"] as? [String: Any]
            #expect(schemes?["bearerAuth"] != nil && schemes?["streamTicket"] != nil && schemes?["accessToken"] == nil)
            #expect(try await harness.request(.get, "/OpenAPI.json").status == .ok, "paths match in any case")
        }
    }

    @Test("the document lists exactly the routes the router serves: none missing, none extra")
    func listsEveryRoute() async throws {
        try await ServerHarness.run { harness in
            let (_, document) = try await Self.served(by: harness)
            let documented = OpenAPIChecks.operations(of: document)
            let served = OpenAPIChecks.routes(of: harness.server.makeRouter())
            #expect(served.count > 50, "the router lists its routes")
            let missing = served.subtracting(documented).sorted()
            let extra = documented.subtracting(served).sorted()
            #expect(missing.isEmpty, "served but not documented:\n\(missing.joined(separator: "\n"))")
            #expect(extra.isEmpty, "documented but not served:\n\(extra.joined(separator: "\n"))")
        }
    }

    @Test("the served document validates as OpenAPI (openapi-spec-validator)")
    func validates() async throws {
        try await ServerHarness.run { harness in
            let (response, _) = try await Self.served(by: harness)
            let run = try await OpenAPIChecks.python(
                ["-m", "openapi_spec_validator", "--validation-errors", "all", "$openapi.json"], files: ["openapi.json": response.body],
                modules: ["openapi_spec_validator"])
            #expect(
                run.status == 0,
                "openapi-spec-validator (installed by `scripts/test`) says:\n\(run.output)")
        }
    }
}
