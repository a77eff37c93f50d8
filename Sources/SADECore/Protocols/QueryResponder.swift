import SADEACL

/// How a ``QueryResponder`` answers a `query-if` or `query-ref`.
public enum QueryAnswer: Hashable, Sendable {
    /// Sends `inform` with this content: the answer.
    case inform(String)
    /// Sends `refuse` with this reason as content.
    case refuse(String)
    /// Sends `failure` with this reason as content.
    case failure(String)
    /// Sends `not-understood` with this reason as content.
    case notUnderstood(String)
}

/// The responder side of FIPA Query (fipa00027), as part of an agent. `answer`
/// runs on the agent, so it can read the beliefs directly:
///
/// ```swift
/// let thermometer = Agent("Thermometer", on: platform) {
///     QueryResponder { agent, query in
///         agent.beliefs[.temperature].map { .inform("(temperature \($0))") } ?? .failure("(no-reading)")
///     }
/// }
/// ```
///
/// A message of the `fipa-query` protocol that is not a `query-if` or `query-ref` is
/// answered `not-understood`.
public struct QueryResponder: AgentPart {
    /// The queries this responder takes; other messages pass by untouched.
    public let template: MessageTemplate
    private let answer: @Sendable (isolated Agent, ACLMessage) -> QueryAnswer

    /// Creates a responder for queries matching `template`.
    public init(_ template: MessageTemplate = .any, answer: @escaping @Sendable (isolated Agent, ACLMessage) -> QueryAnswer) {
        self.template = template
        self.answer = answer
    }

    /// Adds the handler that answers queries.
    public func contribute(to definition: inout AgentDefinition) {
        definition.handlers.append(handler)
    }

    /// The responder as a message handler, for ``Agent/addHandler(_:)``.
    public var handler: MessageHandler {
        MessageHandler(.any) { [template, answer] agent, message in
            guard template.matches(message) else { return }
            guard [.queryIf, .queryRef].contains(message.performative) else {
                if message.interactionProtocol == "fipa-query" {
                    agent.answerNotUnderstood(message, reason: "this agent expects only query-if and query-ref in fipa-query")
                }
                return
            }
            let reply: ACLMessage =
                switch answer(agent, message) {
                case .inform(let content): message.makeReply(.inform, content: content)
                case .refuse(let reason): message.makeReply(.refuse, content: reason)
                case .failure(let reason): message.makeReply(.failure, content: reason)
                case .notUnderstood(let reason): message.makeReply(.notUnderstood, content: reason)
                }
            agent.send(reply)
        }
    }
}
