import SADEACL

/// The behaviour of the platform's `ams` and `df` agents: `fipa-agent-management`
/// requests over ACL (fipa00023), so that agents on other platforms can publish and
/// search services and list agents.
///
/// A request's content is `((action (agent-identifier :name df@p) (register …)))`. A
/// `search` whose `(search-constraints …)` has a `:max-depth` other than 0 also searches
/// the DFs of the platforms found on the network (see
/// ``Agent/searchDirectories(for:limit:timeout:)``) and answers when they have, or
/// after at most ``Environment/federatedSearchBound`` (2 s) without those that did not; beyond 16 such searches at once, the
/// others are answered from this DF alone.
/// Answers: `inform` `((done <action>))` or `((result <action> (sequence …)))`;
/// `failure` `(<action> (already-registered))` / `(not-registered)`;
/// `refuse` `(<action> (unauthorised))` / `(unsupported-function f)`; `not-understood`
/// for content that is not a valid action. Replies and failures sent to them are
/// logged and end there, so no two parties bounce messages forever.
enum AgentManagementService {
    /// The AMS: white pages — `search` for agents, `get-description` of the platform.
    static let amsHandler = MessageHandler { agent, message in
        answer(message, from: agent) { (function, arguments, _, agent) throws(Outcome) -> Outcome in
            try ams(function, arguments, agent.environment)
        }
    }

    /// The DF: yellow pages — `register`, `deregister`, `modify`, `search`.
    static let dfHandler = MessageHandler { agent, message in
        answer(message, from: agent) { (function, arguments, sender, agent) throws(Outcome) -> Outcome in
            try df(function, arguments, sender: sender, agent.environment)
        }
    }

    /// The outcome of a management action.
    private enum Outcome: Error {
        case done
        case result([ACLExpression])
        case failure(ACLExpression)
        case refuse(ACLExpression)
        case notUnderstood(String)
        /// A search to run on the platforms found on the network too (`:max-depth` ≠ 0).
        case federate(FederatedQuery)
    }

    /// A DF search that goes on to the DFs of the platforms found on the network.
    private struct FederatedQuery {
        let template: ServiceTemplate
        let agent: AgentIdentifier?
        let limit: Int
    }


    private typealias Perform = (String, [ACLExpression], AgentIdentifier, isolated Agent) throws(Outcome) -> Outcome

    private static func answer(_ message: ACLMessage, from agent: isolated Agent, perform: Perform) {
        guard message.performative == .request, let sender = message.sender else {
            let isAnswer = message.inReplyTo != nil || message.sender == nil
                || [.failure, .notUnderstood, .inform, .agree, .refuse, .informIf, .informRef, .confirm, .disconfirm]
                    .contains(message.performative)
            if isAnswer {
                agent.logger.notice(
                    "message to the platform ignored",
                    metadata: ["performative": "\(message.performative)", "sender": "\(message.sender?.name ?? "none")"])
            } else {
                agent.send(message.makeReply(.notUnderstood, content: "((unsupported-act \(message.performative)))"))
            }
            return
        }
        let outcome: Outcome
        var action = ACLExpression.list([])
        do throws(Outcome) {
            guard message.ontology?.lowercased() == AgentManagementOntology.name else {
                throw .notUnderstood("the ontology must be \(AgentManagementOntology.name), not \(message.ontology ?? "none")")
            }
            action = try actionExpression(in: message.content ?? "")
            guard case .list(let parts) = action, parts.count == 3, case .list(let call) = parts[2],
                case .word(let function)? = call.first
            else { throw .notUnderstood("expected (action (agent-identifier …) (function …))") }
            outcome = try perform(function.lowercased(), Array(call.dropFirst()), sender, agent)
        } catch {
            outcome = error
        }
        if case .federate(let query) = outcome {
            let bound = federationBound(answering: message, on: agent.environment)
            Task { await federate(query, answering: message, action: action, within: bound, agent: agent) }
            return
        }
        agent.send(reply(to: message, action: action, outcome))
    }

    /// Searches this platform's and the found platforms' DFs, then answers.
    private static func federate(
        _ query: FederatedQuery, answering message: ACLMessage, action: ACLExpression, within bound: Duration, agent: isolated Agent
    ) async {
        let platform = agent.environment
        defer { platform.federatedSearches.withLock { $0 -= 1 } }
        let result = await agent.searchDirectories(for: query.template, limit: .max, timeout: bound)
        let found = result.entries.filter { query.agent == nil || platform.isSameAgent($0.agent, query.agent!) }
        if !result.unanswered.isEmpty {
            agent.logger.notice(
                "federated search: platforms that did not answer left out",
                metadata: ["platforms": "\(result.unanswered.keys.sorted())"])
        }
        agent.send(reply(to: message, action: action, .result(found.prefix(query.limit).map(AgentManagementOntology.expression(for:)))))
    }

    /// The platform's ``Environment/federatedSearchBound``, or half of the time the
    /// requester's `reply-by` leaves (at least 100 ms) when less.
    private static func federationBound(answering message: ACLMessage, on platform: Environment) -> Duration {
        let bound = platform.federatedSearchBound
        guard let replyBy = message.replyBy else { return bound }
        let half = Duration.milliseconds(Int64(max(0.1, replyBy.timeIntervalSinceNow / 2) * 1000))
        return min(half, bound)
    }

    private static func reply(to message: ACLMessage, action: ACLExpression, _ outcome: Outcome) -> ACLMessage {
        var reply: ACLMessage
        switch outcome {
        case .done: reply = message.makeReply(.inform, content: "((done \(action)))")
        case .result(let items):
            reply = message.makeReply(.inform, content: "((result \(action) \(ACLExpression.list([.word("sequence")] + items))))")
        case .failure(let reason): reply = message.makeReply(.failure, content: "(\(action) \(reason))")
        case .refuse(let reason): reply = message.makeReply(.refuse, content: "(\(action) \(reason))")
        case .notUnderstood(let reason):
            reply = message.makeReply(.notUnderstood, content: "((unrecognised-value \(ACLExpression.string(reason))))")
        case .federate:
            preconditionFailure("a federated search is answered once the other platforms have")
        }
        reply.language = reply.language ?? AgentManagementOntology.language
        return reply
    }

    /// The `(action …)` in `((action …))` (or a bare `(action …)`).
    private static func actionExpression(in content: String) throws(Outcome) -> ACLExpression {
        let expression: ACLExpression
        do {
            expression = try ACLExpression(parsing: content)
        } catch {
            throw .notUnderstood("content: \(error)")
        }
        if case .list(let items) = expression, items.count == 1, case .list = items[0] { return items[0] }
        guard case .list(let items) = expression, case .word(let head)? = items.first, head.lowercased() == "action" else {
            throw .notUnderstood("expected ((action (agent-identifier …) (function …)))")
        }
        return expression
    }

    private static func df(
        _ function: String, _ arguments: [ACLExpression], sender: AgentIdentifier, _ platform: Environment
    ) throws(Outcome) -> Outcome {
        let directory = platform.directory
        switch function {
        case "register", "deregister", "modify":
            guard arguments.count == 1 else { throw .notUnderstood("\(function) takes one df-agent-description") }
            var entry = try term { () throws(AgentManagementOntology.TermError) in
                try AgentManagementOntology.directoryEntry(from: arguments[0])
            }
            if entry.agent.platform == nil { entry.agent.name += "@\(platform.name)" }  // one key per agent
            guard platform.mayManageEntry(of: entry.agent, requestedBy: sender) else {
                return .refuse(.list([.word("unauthorised")]))
            }
            do {
                switch function {
                case "register": try directory.register(entry)
                case "modify": try directory.modify(entry)
                default: try directory.deregister(entry.agent)
                }
            } catch DirectoryFacilitator.DirectoryError.alreadyRegistered {
                return .failure(.list([.word("already-registered")]))
            } catch {
                return .failure(.list([.word("not-registered")]))
            }
            return .done
        case "search":
            guard let description = arguments.first else { throw .notUnderstood("search takes a df-agent-description") }
            let frame = try term { () throws(AgentManagementOntology.TermError) in
                try AgentManagementOntology.Frame(description, named: "df-agent-description")
            }
            let services = try term { () throws(AgentManagementOntology.TermError) in try frame.collection(":services") }
            let template = try term { () throws(AgentManagementOntology.TermError) in
                try services.first.map(AgentManagementOntology.serviceTemplate) ?? ServiceTemplate()
            }
            let agent = try term { () throws(AgentManagementOntology.TermError) in
                try frame.slot(":name").map(AgentManagementOntology.agentIdentifier)
            }
            let constraints = arguments.dropFirst().first
            let limit = maxResults(constraints)
            if maxDepth(constraints) != 0, !platform.knownPlatforms.isEmpty, platform.beginFederatedSearch() {
                return .federate(FederatedQuery(template: template, agent: agent, limit: limit))
            }
            let found = directory.search(template).filter { agent == nil || platform.isSameAgent($0.agent, agent!) }
            return .result(found.prefix(limit).map(AgentManagementOntology.expression(for:)))
        default:
            return .refuse(.list([.word("unsupported-function"), .word(function)]))
        }
    }

    private static func ams(_ function: String, _ arguments: [ACLExpression], _ platform: Environment) throws(Outcome) -> Outcome {
        switch function {
        case "search":
            let frame = try term { () throws(AgentManagementOntology.TermError) -> AgentManagementOntology.Frame? in
                guard let description = arguments.first else { return nil }
                return try AgentManagementOntology.Frame(description, named: "ams-agent-description")
            }
            let agent = try term { () throws(AgentManagementOntology.TermError) in
                try frame?.slot(":name").map(AgentManagementOntology.agentIdentifier)
            }
            let state = frame?.text(":state")
            let everyone = platform.agents + [platform.amsIdentifier, platform.dfIdentifier].map {
                AMSAgentDescription(identifier: $0, state: .active)
            }
            let found = everyone.filter { description in
                (agent == nil || platform.isSameAgent(description.identifier, agent!)) && (state == nil || "\(description.state)" == state)
            }
            let limit = maxResults(arguments.dropFirst().first)
            return .result(found.prefix(limit).map(AgentManagementOntology.expression(for:)))
        case "get-description":
            let services = platform.addresses.map { address in
                ACLExpression.list([
                    .word("ap-service"), .word(":name"), .word("fipa.mts.mtp.tcp"), .word(":type"), .word("fipa.mts.mtp.tcp"),
                    .word(":addresses"), .list([.word("sequence"), .atom(address)]),
                ])
            }
            return .result([
                .list([.word("ap-description"), .word(":name"), .atom(platform.name),
                       .word(":ap-services"), .list([.word("set")] + services)])
            ])
        case "register", "deregister", "modify":
            // Agents join the white pages by starting on the platform; remote agents
            // cannot be entered into it.
            return .refuse(.list([.word("unauthorised")]))
        default:
            return .refuse(.list([.word("unsupported-function"), .word(function)]))
        }
    }

    /// `:max-results` of a `(search-constraints …)`; 100 when absent, everything when negative.
    private static func maxResults(_ constraints: ACLExpression?) -> Int {
        guard let constraints, let frame = try? AgentManagementOntology.Frame(constraints, named: "search-constraints"),
            let text = frame.text(":max-results"), let value = Int(text)
        else { return 100 }
        return value < 0 ? .max : value
    }

    /// `:max-depth` of a `(search-constraints …)`: how far a search goes on to other
    /// platforms' DFs; 0 (this DF alone) when absent or not a number.
    private static func maxDepth(_ constraints: ACLExpression?) -> Int {
        guard let constraints, let frame = try? AgentManagementOntology.Frame(constraints, named: "search-constraints"),
            let text = frame.text(":max-depth"), let value = Int(text)
        else { return 0 }
        return value
    }

    /// Runs an ontology read, turning its error into a not-understood outcome.
    private static func term<T>(_ read: () throws(AgentManagementOntology.TermError) -> T) throws(Outcome) -> T {
        do {
            return try read()
        } catch {
            throw .notUnderstood(error.reason)
        }
    }
}

extension Environment {
    /// Takes one of the ``maxFederatedSearches`` places; `false` when they are all taken
    /// (the search is then answered from this DF alone, so that no one asker can make
    /// this platform flood the others).
    func beginFederatedSearch() -> Bool {
        federatedSearches.withLock { running in
            guard running < Self.maxFederatedSearches else { return false }
            running += 1
            return true
        }
    }

    /// Whether `sender` may register, modify or deregister the entry of `agent`: only
    /// its own, and an agent of another platform (a sender with another platform's
    /// addresses) only an entry with those same addresses, over one with those addresses, so that a platform that
    /// happens to share this one's name cannot touch the entries of agents here. The
    /// sender of a message is authenticated only between platforms that use mutual TLS
    /// (SADENet's `PlatformTLS`: a sender of another platform than the connection's
    /// certificate is rejected); otherwise keep platforms on a trusted network.
    func mayManageEntry(of agent: AgentIdentifier, requestedBy sender: AgentIdentifier) -> Bool {
        guard isSameAgent(agent, sender) else { return false }
        guard isElsewhere(sender) else { return true }
        let existing = directory.entry(of: agent)?.agent
        let addresses = Set(sender.addresses)
        return Set(agent.addresses) == addresses && existing.map { Set($0.addresses) == addresses } ?? true
    }

    /// Whether two identifiers name the same agent, a missing platform part meaning this platform.
    func isSameAgent(_ first: AgentIdentifier, _ second: AgentIdentifier) -> Bool {
        func full(_ agent: AgentIdentifier) -> String { agent.platform == nil ? "\(agent.name)@\(name)" : agent.name }
        return full(first) == full(second)
    }
}
