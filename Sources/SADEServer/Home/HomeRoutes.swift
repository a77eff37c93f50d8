import Foundation
import Hummingbird
import SADEHome
import SADEMonitoring

extension MonitoringServer {
    /// The smart homes over REST: `GET/POST /homes`, `GET/PATCH /homes/{id}` (the flat
    /// with its floor plan), `POST /homes/{id}/events` (a gateway's batch, all or
    /// nothing), `GET /homes/{id}/messages` and `POST /homes/{id}/messages/{message}/confirm`.
    /// Live events and the thesis's requests are on the event bus (``HomeBus``).
    func addHomeRoutes(to api: RouterGroup<MonitoringRequestContext>) {
        api.get("homes") { _, context -> Response in
            let caller = try context.requireCaller()
            var summaries: [[String: Any]] = []
            for flat in HomeAccess.flats(of: caller, among: try await system.home.store.flats()) {
                summaries.append(try await summary(of: flat))
            }
            return try HomeJSON.response(summaries)
        }

        api.post("homes") { request, context -> Response in
            _ = try context.requireAdmin()
            let plan = try HomeFlatInput.plan(try await HomeJSON.object(from: request, context: context))
            return try HomeJSON.response(HomeStateJSON.flat(try await system.home.createFlat(plan)), status: .created)
        }

        api.get("homes/:id") { _, context -> Response in
            try HomeJSON.response(HomeStateJSON.flat(try await visibleFlat(context)))
        }

        api.patch("homes/:id") { request, context -> Response in
            _ = try context.requireAdmin()
            let flat = try await visibleFlat(context)
            let update = try HomeFlatInput.update(try await HomeJSON.object(from: request, context: context))
            return try HomeJSON.response(HomeStateJSON.flat(try await system.home.store.updateFlat(flat.id, update)))
        }

        api.post("homes/:id/events") { request, context -> Response in
            let caller = try context.requireCaller()
            let flat = try await visibleFlat(context)
            guard HomeAccess.may(caller, postEventsTo: flat) else { throw APIError.forbidden("only the flat's gateway posts its events") }
            let body = try await HomeJSON.value(from: request, limit: 2 << 20, context: context)
            let events = try HomeEventInput.events(from: (body as? [String: Any])?["events"] ?? body)
            let recorded = try await system.home.ingest(events, flat: flat.id)
            return try HomeJSON.response(["accepted": recorded.count, "last_sequence": recorded.last?.sequence ?? 0], status: .created)
        }

        api.get("homes/:id/messages") { request, context -> Response in
            let flat = try await visibleFlat(context)
            let parameter = request.uri.queryParameters["state"].map(String.init) ?? "open"
            let states: Set<HomeMessageState>?
            if parameter == "all" { states = nil } else {
                guard let state = HomeMessageState(rawValue: parameter) else {
                    throw APIError.invalid("state: must be open, confirmed, expired, logged or all", code: "invalid-parameter")
                }
                states = [state]
            }
            let messages = try await system.home.store.messages(flat: flat.id, states: states, from: nil, to: nil)
            return try HomeJSON.response(messages.map(HomeStateJSON.message))
        }

        api.get("homes/:id/messages/:message") { _, context -> Response in
            let message = try await visibleMessage(context)
            var object = HomeStateJSON.message(message)
            if let escalation = try await system.home.alarms.escalation(of: message) { object["escalation"] = HomeStateJSON.escalation(escalation) }
            return try HomeJSON.response(object)
        }

        api.get("homes/:id/activity") { request, context -> Response in
            let flat = try await visibleFlat(context)
            guard try context.requireCaller().role != .relative else {
                throw APIError.forbidden("a relative sees the flat's floor plan and messages, not its activity history")
            }
            let days = try request.uri.queryParameters["days"].map { text in
                guard let days = Int(String(text)), (2...366).contains(days) else {
                    throw APIError.invalid("days: must be a whole number from 2 to 366", code: "invalid-parameter")
                }
                return days
            } ?? 30
            return try HomeJSON.response(HomeStateJSON.activity(try await system.home.activity(flat: flat.id, days: days)))
        }

        api.post("homes/:id/messages/:message/confirm") { _, context -> Response in
            let caller = try context.requireCaller()
            guard caller.role != .device, caller.role != .relative else { throw APIError.forbidden("a device or a relative cannot confirm messages") }
            let message = try await visibleMessage(context)
            guard message.state == .open else {
                throw APIError.conflict("message \(message.id) is \(message.state.rawValue), only open messages can be confirmed")
            }
            return try HomeJSON.response(HomeStateJSON.message(try await system.home.confirm(message: message.id, by: caller.username)))
        }
    }

    /// The message named in the path, of the flat named in it, if the caller may see the flat.
    func visibleMessage(_ context: MonitoringRequestContext) async throws -> HomeMessage {
        let flat = try await visibleFlat(context)
        let text = try context.pathParameter("message")
        guard let id = Int64(text) else { throw APIError.notFound("no message \(text)") }
        let message = try await system.home.store.message(id)
        guard message.flat == flat.id else { throw APIError.notFound("no message \(id) in flat \(flat.id)") }
        return message
    }

    /// A flat's tile: its size, resident, carers, open alarms and warnings, last
    /// activity and the resident's activity condition.
    func summary(of flat: Flat) async throws -> [String: Any] {
        let condition = try await system.home.activityCondition(flat: flat.id)
        var summary: [String: Any] = [
            "id": flat.id, "name": flat.name, "carers": flat.carers, "rooms": flat.rooms.count, "devices": flat.devices.count,
            "open_alarms": condition.openAlarms, "open_warnings": condition.openWarnings,
            "condition": condition.isInactive ? "inactive" : "normal",
        ]
        if let resident = flat.resident {
            summary["resident"] = resident.rawValue
            if let patient = try await system.health.patient(resident) { summary["resident_name"] = patient.name }
        }
        if let last = condition.lastActivity { summary["last_activity"] = HomeStateJSON.iso.format(last) }
        return summary
    }

    /// The flat named in the path if the caller may see it: 404 or 403 otherwise.
    func visibleFlat(_ context: MonitoringRequestContext) async throws -> Flat {
        let caller = try context.requireCaller()
        let text = try context.pathParameter("id")
        guard let id = Int64(text) else { throw APIError.notFound("no flat \(text)") }
        let flat = try await system.home.store.flat(id)
        guard HomeAccess.may(caller, see: flat) else { throw APIError.forbidden("flat \(id) is not one of yours") }
        return flat
    }
}

/// JSON bodies of the home routes, shared with the bus's shapes.
enum HomeJSON {
    static let limit = 1 << 20

    static func response(_ object: Any, status: HTTPResponse.Status = .ok) throws -> Response {
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func value(from request: Request, limit: Int = HomeJSON.limit, context: MonitoringRequestContext) async throws -> Any {
        let buffer = try await APIRequestDecoder.collect(request, limit: limit, channel: context.channel)
        guard buffer.readableBytes > 0 else { throw APIError.invalid("the body is empty: a JSON document is needed", code: "invalid-body") }
        do { return try JSONSerialization.jsonObject(with: Data(buffer: buffer)) } catch {
            throw APIError.invalid("the body is not valid JSON", code: "invalid-body")
        }
    }

    static func object(from request: Request, context: MonitoringRequestContext) async throws -> [String: Any] {
        guard let object = try await value(from: request, context: context) as? [String: Any] else { throw APIError.invalid("the body must be a JSON object", code: "invalid-body") }
        return object
    }
}

extension APIError {
    /// The HTTP answer to a home store error.
    init(_ error: HomeError) {
        switch error {
        case .unknownFlat, .unknownDevice, .unknownRoom, .unknownMessage: self = .notFound(error.description)
        case .invalidValue: self = .invalid(error.description, code: "invalid-field")
        case .storage: self = APIError(.internalServerError, code: "internal", message: "the home store could not store or read data")
        case .unavailable: self = APIError(MonitoringError.unavailable(error.description))
        }
    }
}
