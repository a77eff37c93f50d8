import AsyncHTTPClient
import Foundation
import NIOCore

/// A Server-Sent Events subscription to the harness's server: each event's name and
/// its JSON data, in order.
struct EventStream: Sendable {
    struct Event: Sendable {
        let name: String
        let json: Data
        var data: [String: Any] { (try? JSONSerialization.jsonObject(with: json)) as? [String: Any] ?? [:] }
        var patient: String? { data["patient"] as? String }
    }

    let events: AsyncStream<Event>
    private let task: Task<Void, Never>

    /// Opens `/api/v1/events` with `token` in the `Authorization` header and returns once
    /// the server has subscribed the caller.
    static func open(_ harness: ServerHarness, token: String, types: String? = nil) async throws -> EventStream {
        try await open("http://127.0.0.1:\(harness.port)", token: token, types: types)
    }

    /// Opens `/api/v1/events` on the server at `base` (e.g. `http://127.0.0.1:8080`),
    /// for every kind of event or only `types` (`?types=`).
    static func open(_ base: String, token: String, types: String? = nil) async throws -> EventStream {
        var request = HTTPClientRequest(url: "\(base)/api/v1/events" + (types.map { "?types=\($0)" } ?? ""))
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        return try await open(request)
    }

    /// Opens `/api/v1/events?ticket=` as a browser's `EventSource` does (no headers).
    static func open(_ harness: ServerHarness, ticket: String) async throws -> EventStream {
        try await open(HTTPClientRequest(url: "http://127.0.0.1:\(harness.port)/api/v1/events?ticket=\(ticket)"))
    }

    /// Opens another live stream of the harness's server: `path`, query included, with
    /// `token` in the `Authorization` header or, as a browser does, a `ticket` in the query.
    static func open(_ harness: ServerHarness, path: String, token: String? = nil, ticket: String? = nil) async throws -> EventStream {
        let query = ticket.map { (path.contains("?") ? "&" : "?") + "ticket=\($0)" } ?? ""
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(harness.port)\(path)\(query)")
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        return try await open(request)
    }

    private static func open(_ request: HTTPClientRequest) async throws -> EventStream {
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(600))
        guard response.status == .ok else { throw EventStreamError.status(Int(response.status.code)) }
        let (events, sink) = AsyncStream.makeStream(of: Event.self)
        let (connected, connection) = AsyncStream.makeStream(of: Void.self)
        let task = Task {
            var pending = ""
            do {
                for try await chunk in response.body {
                    pending += String(buffer: chunk)
                    while let end = pending.range(of: "\n\n") {
                        let block = String(pending[..<end.lowerBound])
                        pending.removeSubrange(..<end.upperBound)
                        if block.contains(": connected") { connection.yield() }
                        if let event = parse(block) { sink.yield(event) }
                    }
                }
            } catch {}
            sink.finish()
            connection.finish()
        }
        var waiting = connected.makeAsyncIterator()
        _ = await waiting.next()
        return EventStream(events: events, task: task)
    }

    static func parse(_ block: String) -> Event? {
        var name = "message"
        var data = ""
        for line in block.split(separator: "\n") {
            if line.hasPrefix("event: ") { name = String(line.dropFirst(7)) }
            if line.hasPrefix("data: ") { data += line.dropFirst(6) }
        }
        guard !data.isEmpty else { return nil }
        return Event(name: name, json: Data(data.utf8))
    }

    /// The events up to and including the first that satisfies `last`, or a failure
    /// after `limit` (a regression fails fast rather than at the suite's time limit).
    func events(through last: @escaping @Sendable (Event) -> Bool, within limit: Duration = .seconds(60)) async throws -> [Event] {
        try await withThrowingTaskGroup(of: [Event]?.self) { group in
            group.addTask {
                var told: [Event] = []
                for await event in events {
                    told.append(event)
                    if last(event) { return told }
                }
                return told
            }
            group.addTask {
                try await Task.sleep(for: limit)
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            guard let first else { throw EventStreamError.tooLate(limit) }
            return first
        }
    }

    /// Stops reading.
    func close() { task.cancel() }
}

enum EventStreamError: Error, Equatable {
    case status(Int)
    /// The awaited event did not come within this time.
    case tooLate(Duration)
}

extension AsyncStream<EventStream.Event>.Iterator {
    /// The next event that satisfies `condition`, skipping others; `nil` if the stream ends.
    mutating func next(where condition: (EventStream.Event) -> Bool) async -> EventStream.Event? {
        while let event = await next() {
            if condition(event) { return event }
        }
        return nil
    }
}
