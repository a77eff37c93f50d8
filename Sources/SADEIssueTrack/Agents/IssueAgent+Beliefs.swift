import SADEACL
import SADECore

/// An issue an employee works on, with who asked for it (when it came by Contract Net),
/// so the result can be reported to them.
public struct Assignment: Hashable, Sendable {
    /// The issue.
    public var issue: Issue
    /// The requester's agent; `nil` for work the employee had before.
    public var requester: AgentIdentifier?
    /// The conversation the issue was offered in.
    public var conversationID: String?
}

extension BeliefKey where Value == [Assignment] {
    /// What the employee works on.
    static let workload: BeliefKey<[Assignment]> = "workload"
}

extension BeliefKey where Value == [String: Issue] {
    /// Issues offered and proposed for, by conversation id, until accepted or rejected.
    static let openOffers: BeliefKey<[String: Issue]> = "openOffers"
}

extension BeliefKey where Value == Bool {
    /// Whether the employee is connected to the company network.
    static let isConnected: BeliefKey<Bool> = "isConnected"
}

extension Agent {
    /// Adds an assignment to the workload belief.
    func takeOn(_ assignment: Assignment) {
        setBelief(.workload, to: (beliefs[.workload] ?? []) + [assignment])
    }

    /// Removes issue `id` from the workload belief; returns its assignment.
    func finish(_ id: Int64) -> Assignment? {
        var workload = beliefs[.workload] ?? []
        guard let index = workload.firstIndex(where: { $0.issue.id == id }) else { return nil }
        let assignment = workload.remove(at: index)
        setBelief(.workload, to: workload)
        return assignment
    }

    /// Remembers (or, with `nil`, forgets) the issue offered in `conversation`.
    func setOpenOffer(_ issue: Issue?, in conversation: String) {
        var offers = beliefs[.openOffers] ?? [:]
        offers[conversation] = issue
        setBelief(.openOffers, to: offers)
    }
}

extension Agent {
    /// Adds `behaviour` if the agent is active; returns whether it did.
    func addBehaviourIfActive(_ behaviour: any Behaviour) -> Bool {
        guard state == .active else { return false }
        addBehaviour(behaviour)
        return true
    }
}
