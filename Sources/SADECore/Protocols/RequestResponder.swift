import SADEACL

/// How a ``RequestResponder`` answers a request before doing the work.
public enum RequestDecision: Hashable, Sendable {
    /// Sends `agree` at once, then the result when the work is done.
    case agree
    /// Sends no `agree`, only the result when the work is done (for quick work).
    case proceed
    /// Sends `refuse` with this reason as content; no work is done.
    case refuse(String)
    /// Sends `not-understood` with this reason; no work is done.
    case notUnderstood(String)
}

/// The responder side of FIPA Request (fipa00026), as part of an agent:
///
/// ```swift
/// let pharmacy = Agent("Pharmacy", on: platform) {
///     RequestResponder { agent, request in
///         agent.beliefs[.stock] ?? 0 > 0 ? .agree : .refuse("(out-of-stock)")
///     } perform: { agent, request in
///         try await deliver(request.content)
///         return "(delivered)"
///     }
/// }
/// ```
///
/// `decide` runs on the agent, like a message handler; `perform` runs in a task of
/// its own, so the agreement goes out first and the result whenever the work is
/// done, while the agent keeps handling messages. Its returned string is the
/// `inform`'s content (`(done)` if `nil`); a thrown error's description becomes the
/// `failure`'s content. A message of the `fipa-request` protocol that is not a
/// request is answered `not-understood`.
public struct RequestResponder: AgentPart {
    /// The requests this responder takes; other messages pass by untouched.
    public let template: MessageTemplate
    private let decide: @Sendable (isolated Agent, ACLMessage) -> RequestDecision
    private let perform: @Sendable (Agent, ACLMessage) async throws -> String?

    /// Creates a responder for requests matching `template`.
    ///
    /// - Parameters:
    ///   - decide: agree, proceed without agreeing, refuse or not understand;
    ///     agrees by default.
    ///   - perform: does the work and returns the result's content.
    public init(
        _ template: MessageTemplate = .any,
        decide: @escaping @Sendable (isolated Agent, ACLMessage) -> RequestDecision = { _, _ in .agree },
        perform: @escaping @Sendable (Agent, ACLMessage) async throws -> String?
    ) {
        self.template = template
        self.decide = decide
        self.perform = perform
    }

    /// Adds the handler that answers requests.
    public func contribute(to definition: inout AgentDefinition) {
        definition.handlers.append(handler)
    }

    /// The responder as a message handler, for ``Agent/addHandler(_:)``.
    public var handler: MessageHandler {
        MessageHandler(.any) { [template, decide, perform] agent, message in
            guard template.matches(message) else { return }
            guard message.performative == .request else {
                if message.interactionProtocol == "fipa-request" {
                    agent.answerNotUnderstood(message, reason: "this agent expects only requests in fipa-request")
                }
                return
            }
            let decision = decide(agent, message)
            switch decision {
            case .refuse(let reason): agent.send(message.makeReply(.refuse, content: reason))
            case .notUnderstood(let reason): agent.send(message.makeReply(.notUnderstood, content: reason))
            case .agree, .proceed:
                if decision == .agree { agent.send(message.makeReply(.agree, content: message.content)) }
                agent.performAndReport(message, perform)
            }
        }
    }
}

extension Agent {
    /// Runs a responder's work in a task of its own and reports the result to the
    /// initiator: `inform` with the returned content, or `failure` with the error.
    nonisolated func performAndReport(
        _ message: ACLMessage, _ perform: @escaping @Sendable (Agent, ACLMessage) async throws -> String?
    ) {
        Task(executorPreference: executor.scheduler) { [self] in
            do {
                let result = try await perform(self, message)
                send(message.makeReply(.inform, content: result ?? "(done)"))
            } catch {
                send(message.makeReply(.failure, content: "\(error)"))
            }
        }
    }
}
