import SADEACL
import SADECore

/// iMobile's `NotifyResultResolutionIssueBehavior`: once the employee is done with an
/// issue they took, tells the requester's agent whether it was solved, with the
/// employee's note, and removes it from the workload.
///
/// The `inform` carries a ``Resolution`` in a conversation of its own
/// (`issue-N-result`): the Contract Net that brought the issue ended when it was taken.
public struct NotifyResultResolution: Behaviour {
    /// The behaviour's name.
    public let name = "NotifyResultResolution"
    /// The issue's number.
    public let issue: Int64
    /// The employee's id.
    public let employee: String
    /// Whether the issue was solved.
    public let solved: Bool
    /// What the employee adds.
    public let note: String
    /// How long to work before reporting; at once when `nil`.
    public let after: Duration?
    let observe: @Sendable (IssueTrackEvent) -> Void

    /// Creates the behaviour.
    public init(
        issue: Int64, employee: String, solved: Bool, note: String, after: Duration? = nil,
        observe: @escaping @Sendable (IssueTrackEvent) -> Void = { _ in }
    ) {
        self.issue = issue
        self.employee = employee
        self.solved = solved
        self.note = note
        self.after = after
        self.observe = observe
    }

    /// Waits if told to, then reports; does nothing for an issue not in the workload.
    public func action(_ context: ActionContext) async throws {
        if let after { try await context.sleep(for: after) }
        guard let assignment = await context.agent.finish(issue) else { return }
        let resolution = Resolution(issue: issue, employee: employee, solved: solved, note: note)
        observe(.reported(resolution))
        guard let requester = assignment.requester else { return }
        context.send(ACLMessage(
            .inform, receivers: [requester], content: resolution.content, language: "fipa-sl", ontology: IssueMessages.ontology,
            conversationID: "issue-\(issue)-result"))
    }
}
