import Foundation
import HTTPTypes

/// The answers a test got, each with the documented operation it came from
/// (`get /api/v1/patients/{id}`), for ``OpenAPIChecks/conformanceScript``.
struct AnswerLog {
    let harness: ServerHarness
    private(set) var entries: [[String: Any]] = []

    init(_ harness: ServerHarness) { self.harness = harness }

    /// Sends a request to `path` (the `template` itself, query included, when it has
    /// no captures), records the answer as one of `method template` without its
    /// query, and returns it.
    @discardableResult
    mutating func call(
        _ method: HTTPRequest.Method, _ template: String, _ path: String? = nil, token: String? = nil,
        json: (any Encodable & Sendable)? = nil, raw: String? = nil
    ) async throws -> HarnessResponse {
        let response = try await harness.request(method, path ?? template, token: token, json: json, raw: raw)
        var entry: [String: Any] = [
            "method": method.rawValue.lowercased(), "path": String(template.prefix { $0 != "?" }), "status": response.status.code,
        ]
        if !response.body.isEmpty, let mediaType = response.headers[.contentType]?.split(separator: ";").first {
            entry["contentType"] = mediaType.trimmingCharacters(in: .whitespaces)
            if mediaType.hasSuffix("json") {
                entry["body"] = try JSONSerialization.jsonObject(with: response.body, options: .fragmentsAllowed)
            }
        }
        entries.append(entry)
        return response
    }

    /// Records `json` to be checked against the component schema `schema`.
    mutating func record(_ json: Data, as schema: String) throws {
        entries.append(["schema": schema, "body": try JSONSerialization.jsonObject(with: json)])
    }

    /// The entries as JSON.
    func data() throws -> Data { try JSONSerialization.data(withJSONObject: entries) }
}
