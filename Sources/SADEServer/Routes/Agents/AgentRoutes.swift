import Foundation
import Hummingbird
import SADEACL
import SADECore
import SADEHealth
import SADEMonitoring

extension MonitoringServer {
    /// Seeing inside the agents, for admins (JADE's Introspector and Sniffer, Jason's
    /// mind inspector):
    ///
    /// - `GET /platforms`: the server's agent platforms; `GET /platforms/{id}/agents`:
    ///   their agents with state and counters; `GET /platforms/{id}/agents/{name}`: one
    ///   agent's mind (``AgentSnapshot``).
    /// - `GET /platforms/{id}/agents/{name}/events`: the agent's events, live
    ///   (Server-Sent Events, a reasoning cycle's decisions among them);
    ///   `GET /platforms/{id}/messages?agents=`: the messages the chosen agents send and
    ///   receive, live. Browsers open both with a `?ticket=` as for `/events`.
    /// - `POST /platforms/{id}/messages`: a message sent from the platform's `inspector:dashboard`
    ///   agent (JADE's DummyAgent), answered with the replies.
    ///
    /// Live streams end at server shutdown, when the token expires, and when the
    /// caller's account stops being an admin's or changes password (read again every
    /// 30 s).
    func addAgentRoutes(to api: RouterGroup<MonitoringRequestContext>) {
        api.get("platforms") { _, context -> [PlatformView] in
            _ = try context.requireAdmin()
            return inspectedPlatforms.map { platform in
                PlatformView(
                    id: platform.id, name: platform.environment.name, description: platform.description,
                    agents: platform.environment.agentCount)
            }
        }
        api.get("platforms/:platform/agents") { _, context -> [AgentSummaryView] in
            _ = try context.requireAdmin()
            let platform = try inspectedPlatform(context)
            var rows: [AgentSummaryView] = []
            for entry in platform.agents {
                guard let agent = platform.agent(named: entry.identifier.name) else { continue }  // stopped meanwhile
                rows.append(AgentSummaryView(await agent.snapshot()))
            }
            return rows
        }
        api.get("platforms/:platform/agents/:agent") { _, context -> AgentSnapshot in
            _ = try context.requireAdmin()
            return try await inspectedAgent(context).snapshot()
        }
        api.get("platforms/:platform/agents/:agent/events") { _, context -> Response in
            let caller = try context.requireAdmin()
            let events = try await inspectedAgent(context).events()  // unbounded: the stream below keeps the newest
            let clock = system.now
            return adminStream(events, for: caller, context: context) { event in
                let view = AgentEventView(event: event, at: clock())
                return Self.serverSentEvent(named: view.name, view)
            }
        }
        api.get("platforms/:platform/messages") { request, context -> Response in
            let caller = try context.requireAdmin()
            let platform = try inspectedPlatform(context)
            let agents = try request.uri.queryParameters["agents"].map { list in
                let names = Set(list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
                guard !names.isEmpty else {
                    throw APIError.invalid("agents: name at least one agent, or leave the parameter out for every agent", code: "invalid-parameter")
                }
                return names
            }
            let messages = platform.sniff(agents, buffer: Self.liveBuffer)
            let clock = system.now
            return adminStream(messages, for: caller, context: context) { message in
                Self.serverSentEvent(named: "message", ACLMessageView(message, at: clock()))
            }
        }
        api.post("platforms/:platform/messages") { request, context -> ExchangeView in
            _ = try context.requireAdmin()
            let platform = try inspectedPlatform(context)
            let input = try await request.decode(as: MessageInput.self, context: context)
            let (message, timeout) = try input.message(on: platform)
            let exchange: InspectorDesk.Exchange
            do {
                exchange = try await inspectorDesk.exchange(message, on: platform, timeout: timeout)
            } catch {
                throw APIError.conflict("the inspector agent cannot start on \(platform.name): \(error)")
            }
            let sent = ACLMessageView(exchange.sent.message, at: exchange.sent.at)
            context.auditNote.note(detail: String(sent.fipa.prefix(1_000)))  // what was sent, in the audit trail
            return ExchangeView(
                sent: sent, replies: exchange.replies.map { ACLMessageView($0.message, at: $0.at) }, timedOut: exchange.timedOut)
        }
    }

    /// A platform the API shows, and how it names it.
    struct InspectedPlatform {
        let id: String
        let environment: SADECore.Environment
        let description: String
    }

    /// The monitoring platform (the pipeline's agents, the care workers and the smart
    /// homes' agents) and, when served, the issue track's company.
    var inspectedPlatforms: [InspectedPlatform] {
        var platforms = [
            InspectedPlatform(
                id: "monitoring", environment: system.platform,
                description: "remote monitoring: collector, anomalies, alerts, care workers; the smart homes' agents"),
        ]
        if let issueTrack {
            platforms.append(InspectedPlatform(id: "issues", environment: issueTrack.platform, description: "the issue track's office and employees"))
        }
        return platforms
    }

    /// The platform the path names, or a 404.
    private func inspectedPlatform(_ context: MonitoringRequestContext) throws -> SADECore.Environment {
        let id = try context.pathParameter("platform")
        guard let platform = inspectedPlatforms.first(where: { $0.id == id }) else {
            throw APIError.notFound("no platform '\(id)': \(inspectedPlatforms.map(\.id).joined(separator: ", ")) are served")
        }
        return platform.environment
    }

    /// The agent the path names on the platform it names, or a 404.
    private func inspectedAgent(_ context: MonitoringRequestContext) throws -> Agent {
        let platform = try inspectedPlatform(context)
        let name = try context.pathParameter("agent")
        guard let agent = platform.agent(named: name) else { throw APIError.notFound("no agent '\(name)' on \(platform.name)") }
        return agent
    }

    /// A live stream for an admin: each element as `render` writes it, until the source
    /// ends, the server shuts down, the token expires, or the account (read again every
    /// 30 s) is no longer this admin's.
    private func adminStream<Element: Sendable>(
        _ source: AsyncStream<Element>, for caller: UserAccount, context: MonitoringRequestContext,
        render: @escaping @Sendable (Element) -> String
    ) -> Response {
        let accounts = system.accounts
        let now = system.now
        let expiresAt = context.credentialsExpireAt ?? .distantFuture
        let body = ResponseBody { writer in
            let (items, feeders) = Self.withKeepAlive(source, buffer: Self.liveBuffer)
            defer { feeders.forEach { $0.cancel() } }
            var checked = ContinuousClock.now
            try await writer.write(ByteBuffer(string: "retry: 3000\n: connected\n\n"))
            for await item in items {
                guard now() < expiresAt else { break }
                if ContinuousClock.now - checked > .seconds(30) {
                    guard let current = try await accounts.account(id: caller.id), current.role == .admin,
                        current.credentialsChangedAt == caller.credentialsChangedAt
                    else { break }
                    checked = ContinuousClock.now
                }
                try await writer.write(ByteBuffer(string: item.map(render) ?? ": keep-alive\n\n"))
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: Self.eventStreamHeaders, body: body)
    }

    /// How many events or messages an admin's live stream keeps for a reader that has
    /// not taken them (the newest; older ones are dropped).
    static let liveBuffer = 1_000

    /// The ontologies of the monitoring pipeline's own messages, which the inspector
    /// does not send: samples, anomalies and care assignments come in through the
    /// routes that validate and audit them, not as hand-written messages.
    static let pipelineOntologies: Set<String> = [SampleBatch.aclOntology, Anomaly.aclOntology, AlertAgent.careOntology]

    /// `event: <name>` and `data: <json>` lines.
    static func serverSentEvent(named name: String, _ value: some Encodable) -> String {
        let data = (try? APIResponseEncoder.encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return "event: \(name)\ndata: \(data)\n\n"
    }
}

/// What `POST /platforms/{id}/messages` answers.
struct ExchangeView: ResponseEncodable {
    let sent: ACLMessageView
    let replies: [ACLMessageView]
    /// Whether the time ran out before a final answer (anything but `agree`).
    let timedOut: Bool
}

/// The body of `POST /platforms/{id}/messages`.
struct MessageInput: Decodable {
    /// A local agent name (`echo`) or a full one (`echo@hospital`).
    let receiver: String
    /// A FIPA performative, e.g. `request`.
    let performative: String
    let content: String?
    let `protocol`: String?
    let ontology: String?
    let language: String?
    /// Seconds to wait for a final answer: 0.1 to 10, 3 by default.
    let timeout: Double?

    /// The message to send on `platform`, and how long to wait; a 400 for what does not fit.
    func message(on platform: SADECore.Environment) throws -> (ACLMessage, Duration) {
        guard let performative = Performative(rawValue: performative) else {
            throw APIError.invalid(
                "performative: '\(self.performative)' is not a FIPA performative (\(Performative.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        let receiver = receiver.trimmingCharacters(in: .whitespaces)
        guard !receiver.isEmpty, receiver.unicodeScalars.count <= 256,
            !receiver.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.properties.generalCategory == .control })
        else {
            throw APIError.invalid("receiver: an agent name (1 to 256 characters, no spaces or control characters) is needed")
        }
        guard receiver != InspectorDesk.agentName, receiver != "\(InspectorDesk.agentName)@\(platform.name)" else {
            throw APIError.invalid("receiver: the inspector does not write to itself")
        }
        if let ontology, MonitoringServer.pipelineOntologies.contains(ontology) {
            throw APIError.invalid("ontology: '\(ontology)' is the monitoring pipeline's own; its data comes in through the API's routes")
        }
        let seconds = timeout ?? 3
        guard seconds.isFinite, (0.1...10).contains(seconds) else { throw APIError.invalid("timeout: should be 0.1 to 10 seconds") }
        let message = ACLMessage(
            performative, receivers: [AgentIdentifier(name: receiver.contains("@") ? receiver : "\(receiver)@\(platform.name)")],
            content: content, language: language, ontology: ontology, interactionProtocol: `protocol`)
        return (message, .milliseconds(Int(seconds * 1000)))
    }
}
