/// What an ``IssueAgent`` tells its observer as it works, for stories, logs and tests.
public enum IssueTrackEvent: Hashable, Sendable {
    /// The agent looked for colleagues offering the issue's service and found these, by id.
    case discovered(Issue, colleagues: [String])
    /// The issue was offered to these colleagues, by id.
    case offered(Issue, to: [String])
    /// A colleague proposed to take it.
    case proposed(Issue, by: String, AcceptReason)
    /// A colleague refused it.
    case refused(Issue, by: String, RefusalReason)
    /// A colleague's agent could not be reached or did not answer.
    case unreachable(Issue, employee: String)
    /// A colleague chosen to take it decided not to (*Can't*, or no answer in time).
    case declined(Issue, Declination)
    /// A colleague took it and confirmed.
    case taken(Issue, by: String)
    /// The round is over; see the round's result.
    case finished(IssueRound)
    /// This agent was offered an issue and answered.
    case answered(Issue, IssueAnswer)
    /// This agent's employee was asked whether they take an issue and decided.
    case decided(Issue, by: String, EmployeeDecision)
    /// This agent reported the result of an issue it worked on.
    case reported(Resolution)
    /// The employee working on an issue this agent registered reported its result.
    case resolved(Issue, Resolution)
}
