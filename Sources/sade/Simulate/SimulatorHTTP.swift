import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// JSON over HTTP to the server under simulation.
struct SimulatorHTTP: Sendable {
    /// The server's base URL, without a trailing slash.
    let server: String
    let client: HTTPClient

    /// What came back.
    struct Answer: Sendable {
        let status: Int
        let body: Data
        var json: Any? { try? JSONSerialization.jsonObject(with: body) }
        var isSuccess: Bool { (200..<300).contains(status) }
        var errorMessage: String {
            let object = json as? [String: Any]
            return ((object?["error"] as? [String: Any])?["message"] as? String) ?? (object?["message"] as? String)
                ?? String(decoding: body.prefix(200), as: UTF8.self)
        }
    }

    /// Sends `body` (encoded JSON) to `path`; on 429 waits as told (at most 5 s at a
    /// time) and tries again, up to ten times.
    func send(_ method: HTTPMethod, _ path: String, token: String? = nil, body: Data? = nil) async throws -> Answer {
        var attempt = 0
        while true {
            let (answer, retryAfter) = try await sendOnce(method, path, token: token, body: body)
            attempt += 1
            guard answer.status == 429, attempt < 10 else { return answer }
            try await Task.sleep(for: .seconds(min(5, max(0.2, retryAfter ?? 1))))
        }
    }

    private func sendOnce(_ method: HTTPMethod, _ path: String, token: String?, body: Data?) async throws -> (Answer, Double?) {
        var request = HTTPClientRequest(url: server + path)
        request.method = method
        request.headers.add(name: "Accept", value: "application/json")
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let response = try await client.execute(request, timeout: .seconds(30))
        let buffer = try await response.body.collect(upTo: 16 << 20)
        return (Answer(status: Int(response.status.code), body: Data(buffer: buffer)), response.headers.first(name: "Retry-After").flatMap(Double.init))
    }

    /// Sends a JSON value.
    func send(_ method: HTTPMethod, _ path: String, token: String? = nil, json: Any) async throws -> Answer {
        try await send(method, path, token: token, body: try JSONSerialization.data(withJSONObject: json))
    }
}

/// Why a simulation could not start.
struct SimulationError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
