import Foundation
import HummingbirdWebSocket
import Logging
import SADEHome
import SADEMonitoring

/// One authenticated client of the home event bus: runs its commands in order and
/// feeds its subscriptions. A bad command gets an error result; the socket stays open.
actor HomeBusSession {
    let home: HomeService
    let caller: UserAccount
    /// The flats this connection covers.
    let flats: Set<FlatID>
    let outbound: WebSocketOutboundWriter
    let logger: Logger
    private var lastID = 0
    private var subscriptions: [Int: Task<Void, Never>] = [:]
    private var subscriptionKeys: [Int: UUID] = [:]
    let fanOut: HomeBusFanOut

    init(home: HomeService, fanOut: HomeBusFanOut, caller: UserAccount, flats: Set<FlatID>, outbound: WebSocketOutboundWriter, logger: Logger) {
        self.home = home
        self.fanOut = fanOut
        self.caller = caller
        self.flats = flats
        self.outbound = outbound
        self.logger = logger
    }

    /// Ends the subscriptions (the socket closed).
    func close() {
        for key in subscriptionKeys.values { fanOut.unsubscribe(key) }
        for task in subscriptions.values { task.cancel() }
        subscriptions = [:]
        subscriptionKeys = [:]
    }

    /// Runs one command and answers it; says which (if it had a type) and whether it failed, for the audit trail.
    @discardableResult
    func handle(_ text: String) async -> (type: String?, failed: Bool) {
        guard let command = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            await send(Self.failure(id: nil, .invalidFormat("the message is not a JSON object")))
            return (nil, true)
        }
        let type = command["type"] as? String
        guard let id = HomeEventInput.number(command["id"]).flatMap({ $0 == $0.rounded() && $0 > 0 && $0 < 1e15 ? Int($0) : nil }) else {
            await send(Self.failure(id: nil, .invalidFormat("every command needs a positive integer id")))
            return (type, true)
        }
        guard id > lastID else {
            await send(Self.failure(id: id, HomeBusError(code: "id_reuse", message: "identifiers must increase: \(id) follows \(lastID)")))
            return (type, true)
        }
        lastID = id
        guard let type else {
            await send(Self.failure(id: id, .invalidFormat("the command has no type")))
            return (nil, true)
        }
        do {
            if caller.role == .relative, ["history/history_during_period", "recorder/statistics_during_period"].contains(type) {
                throw HomeBusError.unauthorized("a relative sees the flat's floor plan and messages, not its histories")
            }
            switch type {
            case "ping": await send(["id": id, "type": "pong"])
            case "get_states": await send(Self.success(id: id, try await states(command)))
            case "subscribe_events": try subscribe(id: id, command); await send(Self.success(id: id, NSNull()))
            case "unsubscribe_events": try unsubscribe(command); await send(Self.success(id: id, NSNull()))
            case "call_service": await send(Self.success(id: id, try await callService(command)))
            case "history/history_during_period": await send(Self.success(id: id, try await history(command)))
            case "recorder/statistics_during_period": await send(Self.success(id: id, try await statistics(command)))
            case "homer/request": await send(Self.success(id: id, try await request(command)))
            case "homer/post_events": await send(Self.success(id: id, try await postEvents(command)))
            case "homer/confirm_message": await send(Self.success(id: id, try await confirm(command)))
            default:
                await send(Self.failure(id: id, HomeBusError(code: "unknown_command", message: "unknown command \(type.prefix(60).debugDescription)")))
                return (type, true)
            }
        } catch {
            await send(Self.failure(id: id, HomeBusError(error)))
            return (type, true)
        }
        return (type, false)
    }

    // MARK: Commands

    private func states(_ command: [String: Any]) async throws -> [[String: Any]] {
        var states: [[String: Any]] = []
        for flat in try await scope(command) {
            states += try await home.store.states(flat: flat.id).map { HomeStateJSON.state($0, flat: flat) }
        }
        return states
    }

    private static let eventTypes: Set<String> = ["state_changed", "home_message", "occupancy_changed", "call_service"]

    private func subscribe(id: Int, _ command: [String: Any]) throws {
        let type = command["event_type"] as? String
        if let type, !Self.eventTypes.contains(type) {
            throw HomeBusError.invalidFormat("event_type must be one of \(Self.eventTypes.sorted().joined(separator: ", "))")
        }
        let (key, stream) = fanOut.subscribe(id: id, flats: flats, type: type)
        subscriptions[id] = Task { [outbound, fanOut] in
            for await text in stream {
                guard (try? await outbound.write(.text(text))) != nil else { break }
            }
            fanOut.unsubscribe(key)
        }
        subscriptionKeys[id] = key
    }

    private func unsubscribe(_ command: [String: Any]) throws {
        let subscription = try HomeEventInput.integer(command["subscription"], field: "subscription")
        guard let task = subscriptions.removeValue(forKey: Int(subscription)) else {
            throw HomeBusError.notFound("no subscription \(subscription)")
        }
        if let key = subscriptionKeys.removeValue(forKey: Int(subscription)) { fanOut.unsubscribe(key) }
        task.cancel()
    }

    private func callService(_ command: [String: Any]) async throws -> [String: Any] {
        guard caller.role != .device else { throw HomeBusError.unauthorized("a gateway carries commands out; it does not give them") }
        guard caller.role != .relative else { throw HomeBusError.unauthorized("a relative looks at the flat; carers command its devices") }
        guard let domain = command["domain"] as? String, let service = command["service"] as? String else {
            throw HomeBusError.invalidFormat("call_service needs domain and service")
        }
        let data = command["service_data"] as? [String: Any] ?? [:]
        let target = command["target"] as? [String: Any] ?? [:]
        guard let entity = (target["entity_id"] ?? data["entity_id"]) as? String else {
            throw HomeBusError.invalidFormat("call_service needs target.entity_id")
        }
        let (flat, device) = try await self.device(entity, command)
        guard device.kind.domain == domain else { throw HomeBusError.invalidFormat("\(entity) is not in domain \(domain)") }
        let current = try await home.store.states(flat: flat.id).first { $0.device.id == device.id }?.latest?.value ?? 0
        let value = try ServiceCall.value(domain: domain, service: service, data: data, current: current)
        let timeout = HomeEventInput.number(command["timeout"]).map { Duration.milliseconds(Int64(max(0.1, min($0, 60)) * 1000)) } ?? .seconds(10)
        let event = try await home.call(device: device.id, flat: flat.id, value: value, timeout: timeout)
        var battery = event.battery
        if battery == nil { battery = try await home.store.states(flat: flat.id).first { $0.device.id == device.id }?.battery }
        return [
            "context": ["id": UUID().uuidString],
            "state": HomeStateJSON.state(device, latest: event, lastChanged: event.time, battery: battery, flat: flat),
        ]
    }

    private func history(_ command: [String: Any]) async throws -> [String: Any] {
        let (start, end) = try period(command, start: "start_time", end: "end_time")
        guard let entities = command["entity_ids"] as? [String], !entities.isEmpty else {
            throw HomeBusError.invalidFormat("entity_ids must list at least one entity")
        }
        var result: [String: Any] = [:]
        for entity in entities {
            let (flat, device) = try await self.device(entity, command)
            let events = try await home.store.history(device: device.id, from: start, to: end, limit: 100_000)
            result[entity] = events.enumerated().map { index, event -> [String: Any] in
                var row: [String: Any] = ["s": HomeStateJSON.state(of: device, value: event.value), "lu": event.time.timeIntervalSince1970]
                if index == 0 { row["a"] = (HomeStateJSON.state(device, latest: event, lastChanged: nil, battery: event.battery, flat: flat)["attributes"]) }
                return row
            }
        }
        return result
    }

    private func statistics(_ command: [String: Any]) async throws -> [String: Any] {
        let (start, end) = try period(command, start: "start_time", end: "end_time")
        guard let ids = command["statistic_ids"] as? [String], !ids.isEmpty else {
            throw HomeBusError.invalidFormat("statistic_ids must list at least one entity")
        }
        guard let period = StatisticsPeriod(rawValue: command["period"] as? String ?? "hour") else {
            throw HomeBusError.invalidFormat("period must be hour, day, week, month or year")
        }
        var result: [String: Any] = [:]
        for entity in ids {
            let (_, device) = try await self.device(entity, command)
            let rows = try await home.store.statistics(devices: [device.id], from: start, to: end, period: period)[device.id] ?? []
            result[entity] = rows.map(HomeStateJSON.statistic)
        }
        return result
    }

    private func postEvents(_ command: [String: Any]) async throws -> [String: Any] {
        let flat = try await scope(command, single: true)[0]
        guard HomeAccess.may(caller, postEventsTo: flat) else { throw HomeBusError.unauthorized("only the flat's gateway posts its events") }
        let recorded = try await home.ingest(try HomeEventInput.events(from: command["events"]), flat: flat.id)
        return ["accepted": recorded.count]
    }

    private func confirm(_ command: [String: Any]) async throws -> [String: Any] {
        guard caller.role != .device, caller.role != .relative else { throw HomeBusError.unauthorized("a device or a relative cannot confirm messages") }
        let id = try HomeEventInput.integer(command["message_id"], field: "message_id")
        let message = try await home.store.message(id)
        guard flats.contains(message.flat) else { throw HomeBusError.notFound("no home message with id \(id)") }
        return HomeStateJSON.message(try await home.confirm(message: id, by: caller.username))
    }

    // MARK: Helpers

    /// The flats a command is about: `flat_id` if given (one of the connection's), else
    /// all of the connection's; `single` asks for exactly one.
    func scope(_ command: [String: Any], single: Bool = false) async throws -> [Flat] {
        if let raw = command["flat_id"] {
            let id = try HomeEventInput.integer(raw, field: "flat_id")
            guard flats.contains(id) else { throw HomeBusError.notFound("no flat \(id) on this connection") }
            return [try await home.store.flat(id)]
        }
        if single, flats.count != 1 { throw HomeBusError.invalidFormat("this connection covers \(flats.count) flats: name one with flat_id") }
        var result: [Flat] = []
        for id in flats.sorted() { result.append(try await home.store.flat(id)) }
        return result
    }

    /// The device behind `entity` in the command's flats.
    func device(_ entity: String, _ command: [String: Any]) async throws -> (Flat, Device) {
        let matches = try await scope(command).compactMap { flat in flat.device(entityID: entity).map { (flat, $0) } }
        guard let match = matches.first else { throw HomeBusError.notFound("no entity \(entity.prefix(80).debugDescription)") }
        guard matches.count == 1 else { throw HomeBusError.invalidFormat("\(entity) is in several flats: name one with flat_id") }
        return match
    }

    /// A period from ISO 8601 times (the end defaults to now).
    func period(_ command: [String: Any], start: String, end: String) throws -> (Date, Date) {
        let from = try HomeEventInput.date(command[start], field: start)
        let to = command[end] == nil ? home.clock.now : try HomeEventInput.date(command[end], field: end)
        guard from < to else { throw HomeBusError.invalidFormat("\(start) must be before \(end)") }
        return (from, to)
    }

    func send(_ object: [String: Any]) async {
        do { try await outbound.write(.text(Self.encode(object))) } catch {
            logger.debug("home bus: the client went away", metadata: ["error": "\(error)"])
        }
    }

    static func success(id: Int, _ result: Any) -> [String: Any] { ["id": id, "type": "result", "success": true, "result": result] }

    static func failure(id: Int?, _ error: HomeBusError) -> [String: Any] {
        ["id": id ?? NSNull() as Any, "type": "result", "success": false, "error": ["code": error.code, "message": error.message]]
    }

    static func encode(_ object: [String: Any]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: object) else { return #"{"type":"result","success":false}"# }
        return String(decoding: data, as: UTF8.self)
    }
}
