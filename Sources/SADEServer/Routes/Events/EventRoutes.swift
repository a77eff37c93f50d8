import Foundation
import Hummingbird
import SADEHealth
import SADEMonitoring
import ServiceLifecycle

extension MonitoringServer {
    /// `GET /events`: Server-Sent Events — new samples, NEWS2, alerts, acknowledgements
    /// and escalations of the caller's patients, as they happen (`?types=alert,escalated`:
    /// only those kinds — on several nodes, samples and scores then need not travel
    /// between them for this client). Browsers' `EventSource`
    /// cannot send headers: they ask `POST /events/tickets` for a one-time `?ticket=`
    /// (never the token in the URL, where logs keep it). A comment line
    /// every 15 s keeps proxies from closing the stream; it ends at server shutdown, when
    /// the token expires, and when the caller's account is deleted or changes role or
    /// password (the account is read again every 30 s).
    func addEventRoutes(to api: RouterGroup<MonitoringRequestContext>) {
        struct Ticket: ResponseEncodable {
            let ticket: String
            let expiresAt: Date
        }
        api.post("events/tickets") { _, context -> EditedResponse<Ticket> in
            let caller = try context.requireCaller()
            guard caller.role != .device else { throw APIError.forbidden("a device reads no events") }
            let (ticket, expiresAt) = try await tokens.issueTicket(for: caller, sessionEndsAt: context.credentialsExpireAt ?? .distantFuture)
            return EditedResponse(status: .created, response: Ticket(ticket: ticket, expiresAt: expiresAt))
        }
        api.get("events") { request, context -> Response in
            let caller = try context.requireCaller()
            guard caller.role != .device else { throw APIError.forbidden("a device reads no events") }
            let kinds = try request.uri.queryParameters["types"].map { try Self.eventKinds(String($0)) }
            let stream = system.pipeline.events.subscribe(kinds: kinds)
            await system.announceWatching()  // the other nodes send what it watches from now on
            let access = system.access
            let accounts = system.accounts
            let expiresAt = context.credentialsExpireAt ?? .distantFuture
            let body = ResponseBody { writer in
                var readable = try await access.readablePatients(for: caller)
                var refreshed = ContinuousClock.now
                let (items, feeders) = Self.withKeepAlive(stream)
                defer { feeders.forEach { $0.cancel() } }
                try await writer.write(ByteBuffer(string: "retry: 3000\n: connected\n\n"))
                for await item in items {
                    guard system.now() < expiresAt else { break }
                    guard let event = item else {
                        try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                        continue
                    }
                    if ContinuousClock.now - refreshed > .seconds(30) {
                        guard let current = try await accounts.account(id: caller.id), current.role == caller.role,
                            current.credentialsChangedAt == caller.credentialsChangedAt
                        else { break }
                        readable = try await access.readablePatients(for: current)
                        refreshed = ContinuousClock.now
                    }
                    guard readable?.contains(event.patient) ?? true else { continue }
                    try await writer.write(ByteBuffer(string: Self.serverSentEvent(event)))
                }
                try await writer.finish(nil)
            }
            return Response(status: .ok, headers: Self.eventStreamHeaders, body: body)
        }
    }

    /// A live stream's headers: not cached, not buffered by proxies (nginx).
    static let eventStreamHeaders: HTTPFields = [.contentType: "text/event-stream", .cacheControl: "no-cache", .init("X-Accel-Buffering")!: "no"]

    /// `stream`'s elements as they come and, every 15 s, a `nil` (time for a keep-alive
    /// comment, which keeps proxies from closing the stream); it ends with `stream` or
    /// at server shutdown. It keeps the newest `buffer` items its reader has not taken.
    /// The caller cancels the feeders when done.
    static func withKeepAlive<Element: Sendable>(
        _ stream: AsyncStream<Element>, buffer: Int = 256
    ) -> (items: AsyncStream<Element?>, feeders: [Task<Void, Never>]) {
        let (items, feed) = AsyncStream.makeStream(of: Element?.self, bufferingPolicy: .bufferingNewest(buffer))
        let feeders = [
            Task {
                for await element in stream { feed.yield(element) }
                feed.finish()
            },
            Task {
                while (try? await Task.sleep(for: .seconds(15))) != nil { feed.yield(nil) }
            },
            Task {
                try? await gracefulShutdown()
                feed.finish()
            },
        ]
        return (items, feeders)
    }

    /// The kinds `types` names, comma-separated.
    static func eventKinds(_ types: String) throws -> Set<MonitoringEvent.Kind> {
        try Set(types.split(separator: ",", omittingEmptySubsequences: false).map { name in
            guard let kind = MonitoringEvent.Kind(rawValue: name.trimmingCharacters(in: .whitespaces)) else {
                let kinds = MonitoringEvent.Kind.allCases.map(\.rawValue).joined(separator: ", ")
                throw APIError.invalid("types: '\(name)' is not one of \(kinds)", code: "invalid-parameter")
            }
            return kind
        })
    }

    /// `event: <type>` and `data: <json>` lines.
    static func serverSentEvent(_ event: MonitoringEvent) -> String {
        let data = (try? APIResponseEncoder.encoder.encode(event)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return "event: \(event.type)\ndata: \(data)\n\n"
    }
}
