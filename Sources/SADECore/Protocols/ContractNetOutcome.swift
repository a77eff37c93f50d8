import Foundation
import SADEACL

/// What happened in a FIPA Contract Net (fipa00029) that this agent initiated.
///
/// Dictionaries are keyed by the participants as they were passed to
/// ``Agent/contractNet(_:participants:deadline:resultTimeout:select:)``; messages
/// carry the senders' full names.
public struct ContractNetOutcome: Hashable, Sendable {
    /// Why a participant sent neither a proposal nor a refusal.
    public enum Silence: Hashable, Sendable {
        /// Nothing came before the deadline.
        case timedOut
        /// The platform could not deliver the cfp (unknown, stopped or unreachable
        /// agent); the `failure` from the AMS says why.
        case undeliverable(ACLMessage)
        /// The participant answered `not-understood`.
        case notUnderstood(ACLMessage)
    }

    /// What an accepted participant reported after doing the task.
    public enum Result: Hashable, Sendable {
        /// Done; the `inform` may carry a result.
        case inform(ACLMessage)
        /// Not done: the participant's `failure`, or the AMS's when the
        /// accept-proposal could not be delivered.
        case failure(ACLMessage)
    }

    /// The conversation-id of the cfp and every later message.
    public let conversationID: String
    /// Proposals received before the deadline, in arrival order.
    public internal(set) var proposals: [ACLMessage] = []
    /// Refusals received before the deadline, in arrival order.
    public internal(set) var refusals: [ACLMessage] = []
    /// Participants that did not answer, with the reason.
    public internal(set) var unanswered: [AgentIdentifier: Silence] = [:]
    /// The proposals chosen by the selection; each got an `accept-proposal`.
    public internal(set) var accepted: [ACLMessage] = []
    /// The proposals not chosen, and late ones; each got a `reject-proposal`.
    public internal(set) var rejected: [ACLMessage] = []
    /// Proposals that came after the deadline while the conversation still ran;
    /// rejected automatically, as fipa00029 says.
    public internal(set) var lateProposals: [ACLMessage] = []
    /// The result of each accepted participant that reported in time.
    public internal(set) var results: [AgentIdentifier: Result] = [:]
    /// Accepted participants that sent no result within the result timeout.
    public internal(set) var resultTimeouts: [AgentIdentifier] = []

    init(conversationID: String) {
        self.conversationID = conversationID
    }

    /// The `inform`s of the accepted participants that did the task.
    public var informs: [ACLMessage] {
        results.values.compactMap { if case .inform(let message) = $0 { message } else { nil } }
    }
}

/// Ready-made ways to pick the winning proposals of a contract net.
public enum ProposalSelection {
    /// Accepts the one proposal whose content has the lowest number (the first
    /// number in it, so `12.5` and `(price 12.5)` both bid 12.5); the earliest wins a
    /// tie. Accepts none if no proposal has a number.
    public static let lowestNumericContent: @Sendable ([ACLMessage]) async -> [ACLMessage] = { proposals in
        let bids = proposals.compactMap { proposal in number(in: proposal.content).map { (proposal, $0) } }
        guard let best = bids.min(by: { $0.1 < $1.1 }) else { return [] }
        return [best.0]
    }

    /// Accepts every proposal.
    public static let all: @Sendable ([ACLMessage]) async -> [ACLMessage] = { $0 }

    /// The first number in `content`, reading words separated by spaces and parentheses.
    static func number(in content: String?) -> Double? {
        guard let content else { return nil }
        let words = content.split(whereSeparator: { $0.isWhitespace || $0 == "(" || $0 == ")" })
        return words.lazy.compactMap { Double($0) }.first { $0.isFinite }
    }
}
