/// A FIPA communicative act: what the sender means by a message (fipa00037).
///
/// The raw value is the act's name as it is written in the FIPA-ACL string form.
public enum Performative: String, CaseIterable, Codable, Hashable, Sendable {
    /// Accepts a previously submitted proposal to perform an action.
    case acceptProposal = "accept-proposal"
    /// Agrees to perform a requested action, possibly in the future.
    case agree
    /// Cancels a previous request (or subscription) that is still in progress.
    case cancel
    /// Calls for proposals to perform an action (Contract Net).
    case cfp
    /// Tells the receiver that a proposition, which it was uncertain about, is true.
    case confirm
    /// Tells the receiver that a proposition, which it believed, is false.
    case disconfirm
    /// Tells the receiver that an action was attempted but failed.
    case failure
    /// Tells the receiver that a proposition is true.
    case inform
    /// Macro act: inform the receiver whether or not a proposition is true.
    case informIf = "inform-if"
    /// Macro act: inform the receiver of the object that corresponds to a descriptor.
    case informRef = "inform-ref"
    /// Tells the receiver that the sender did not understand a message.
    case notUnderstood = "not-understood"
    /// Asks the receiver to forward the embedded message to agents matching a description.
    case propagate
    /// Submits a proposal to perform an action under given preconditions.
    case propose
    /// Asks the receiver to select target agents and send them the embedded message.
    case proxy
    /// Asks whether a proposition is true.
    case queryIf = "query-if"
    /// Asks for the object referred to by a referential expression.
    case queryRef = "query-ref"
    /// Refuses to perform an action and says why.
    case refuse
    /// Rejects a proposal during a negotiation.
    case rejectProposal = "reject-proposal"
    /// Asks the receiver to perform an action.
    case request
    /// Asks the receiver to perform an action when a proposition becomes true.
    case requestWhen = "request-when"
    /// Asks the receiver to perform an action each time a proposition becomes true.
    case requestWhenever = "request-whenever"
    /// Asks to be notified whenever the value of a reference changes.
    case subscribe
}

extension Performative: CustomStringConvertible {
    /// The FIPA name of the act, e.g. `query-if`.
    public var description: String { rawValue }
}
