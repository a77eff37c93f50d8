import SADEACL
import Synchronization

/// How a ``ContractNetResponder`` answers a call for proposals.
public enum ContractNetBid: Hashable, Sendable {
    /// Sends `propose` with this content (for instance a price).
    case propose(String)
    /// Sends `refuse` with this reason as content.
    case refuse(String)
}

/// The participant (contractor) side of FIPA Contract Net (fipa00029), as part of
/// an agent:
///
/// ```swift
/// let ambulance = Agent("Ambulance1", on: platform) {
///     ContractNetResponder { agent, cfp in
///         .propose("\(agent.beliefs[.minutesAway] ?? 60)")
///     } perform: { agent, accepted in
///         try await drive(to: accepted.content)
///         return "(arrived)"
///     }
/// }
/// ```
///
/// On a `cfp`, `bid` (run on the agent) proposes or refuses. On an
/// `accept-proposal` for a proposal it made, `perform` runs in a task of its own and
/// its result goes back as `inform` (or `failure` if it throws). On a
/// `reject-proposal` the proposal is forgotten and `rejected` is told. An
/// acceptance or rejection of a proposal it never made, or any other message of the
/// `fipa-contract-net` protocol, is answered `not-understood`.
///
/// Open proposals are kept until accepted or rejected; an initiator that never
/// answers leaves its entry behind until the agent stops.
public struct ContractNetResponder: AgentPart {
    /// The calls for proposals this responder takes; other messages pass by untouched.
    public let template: MessageTemplate
    private let bid: @Sendable (isolated Agent, ACLMessage) -> ContractNetBid
    private let perform: @Sendable (Agent, ACLMessage) async throws -> String?
    private let rejected: @Sendable (isolated Agent, ACLMessage) -> Void

    /// Creates a responder for cfps matching `template`.
    ///
    /// - Parameters:
    ///   - bid: the proposal or refusal for a cfp.
    ///   - perform: does the task once the proposal is accepted (it gets the
    ///     `accept-proposal`) and returns the result's content.
    ///   - rejected: told when a proposal is rejected; does nothing by default.
    public init(
        _ template: MessageTemplate = .any,
        bid: @escaping @Sendable (isolated Agent, ACLMessage) -> ContractNetBid,
        perform: @escaping @Sendable (Agent, ACLMessage) async throws -> String?,
        rejected: @escaping @Sendable (isolated Agent, ACLMessage) -> Void = { _, _ in }
    ) {
        self.template = template
        self.bid = bid
        self.perform = perform
        self.rejected = rejected
    }

    /// Adds the handler that answers calls for proposals; each agent built with
    /// this part keeps its own open proposals.
    public func contribute(to definition: inout AgentDefinition) {
        definition.handlers.append(handler)
    }

    /// The responder as a message handler, for ``Agent/addHandler(_:)``; each call
    /// makes a handler with its own open proposals.
    public var handler: MessageHandler {
        let open = OpenProposals()
        return MessageHandler(.any) { [template, bid, perform, rejected] agent, message in
            guard template.matches(message) || open.contains(message, for: agent) else { return }
            switch message.performative {
            case .cfp:
                switch bid(agent, message) {
                case .propose(let content):
                    var proposal = message.makeReply(.propose, content: content)
                    proposal.replyWith = open.remember(message, for: agent)
                    agent.send(proposal)
                case .refuse(let reason):
                    agent.send(message.makeReply(.refuse, content: reason))
                }
            case .acceptProposal where open.take(message, for: agent):
                agent.performAndReport(message, perform)
            case .rejectProposal where open.take(message, for: agent):
                rejected(agent, message)
            case .acceptProposal, .rejectProposal:
                agent.answerNotUnderstood(message, reason: "this agent has no open proposal in this conversation")
            default:
                if message.interactionProtocol == "fipa-contract-net" {
                    agent.answerNotUnderstood(message, reason: "a \(message.performative) is not expected by a contractor")
                }
            }
        }
    }
}

/// The proposals a contractor made and that are neither accepted nor rejected yet,
/// by initiator and conversation, with the `reply-with` of each.
private final class OpenProposals: Sendable {
    private let proposals = Mutex<(byKey: [String: String], counter: Int)>(([:], 0))

    private func key(_ message: ACLMessage, for agent: Agent) -> String {
        "\(message.sender.map(agent.fullName(of:)) ?? "")|\(message.conversationID ?? "")"
    }

    /// Remembers a proposal in answer to `cfp`; returns its `reply-with`.
    func remember(_ cfp: ACLMessage, for agent: Agent) -> String {
        let key = key(cfp, for: agent)
        return proposals.withLock { state in
            state.counter += 1
            let replyWith = "\(agent.name)-proposal-\(state.counter)"
            state.byKey[key] = replyWith
            return replyWith
        }
    }

    /// Whether `message` answers an open proposal.
    func contains(_ message: ACLMessage, for agent: Agent) -> Bool {
        let key = key(message, for: agent)
        return proposals.withLock { state in
            guard let replyWith = state.byKey[key] else { return false }
            return message.inReplyTo == nil || message.inReplyTo == replyWith
        }
    }

    /// Forgets the open proposal `message` answers; `false` if there is none.
    func take(_ message: ACLMessage, for agent: Agent) -> Bool {
        guard contains(message, for: agent) else { return false }
        let key = key(message, for: agent)
        return proposals.withLock { $0.byKey.removeValue(forKey: key) != nil }
    }
}
