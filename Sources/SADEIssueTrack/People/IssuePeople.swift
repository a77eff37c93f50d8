import Foundation

/// How an ``IssueTrackOffice`` involves the people behind its agents (iMobile §IV): the
/// employee chosen by the rules is asked and decides, and the reporter hears what became
/// of their issue. Without it, employees take issues by rule, unattended.
public struct IssuePeople: Sendable {
    /// How long an employee has to answer before silence counts as *Can't*; `nil`: they
    /// are not asked, their agents take issues by rule.
    public var deadline: Duration?
    /// Reaches people (the server pushes to their phones): the question, and the
    /// reporter's news. Called in the order things happen; it should not wait for delivery.
    public var tell: @Sendable (IssueNews) async -> Void

    /// People asked within `deadline` (`nil`: by rule) and reached through `tell`.
    public init(deadline: Duration?, tell: @escaping @Sendable (IssueNews) async -> Void) {
        self.deadline = deadline
        self.tell = tell
    }
}

/// What an ``IssueTrackOffice`` tells people.
public enum IssueNews: Hashable, Sendable {
    /// Ask the employee: take it? (*Take it* / *Can't*, until the deadline.)
    case question(IssueQuestion)
    /// The question is closed: answered, or silent past its deadline.
    case closed(IssueQuestion, EmployeeDecision)
    /// Tell the reporter: this employee took their issue.
    case taken(Issue, by: String)
    /// Tell the reporter: their issue was solved, or not.
    case resolved(Issue, Resolution)
}

/// The questions open to employees, each waiting for its answer or its deadline.
actor IssueQuestions {
    private var open: [UUID: (question: IssueQuestion, answer: CheckedContinuation<EmployeeDecision, Never>)] = [:]

    /// Puts `question` and waits for its answer; ``EmployeeDecision/noAnswer`` once
    /// `deadline` (real time) passes.
    func ask(_ question: IssueQuestion, within deadline: Duration) async -> EmployeeDecision {
        await withCheckedContinuation { continuation in
            open[question.id] = (question, continuation)
            Task {
                try? await Task.sleep(for: deadline)
                self.close(question.id, with: .noAnswer)
            }
        }
    }

    /// Answers question `id`; the question, or `nil` if it is not open (answered already,
    /// past its deadline, or never asked here).
    @discardableResult
    func close(_ id: UUID, with decision: EmployeeDecision) -> IssueQuestion? {
        guard let (question, answer) = open.removeValue(forKey: id) else { return nil }
        answer.resume(returning: decision)
        return question
    }

    /// Closes every open question unanswered (the office closes).
    func closeAll() {
        for id in Array(open.keys) { close(id, with: .noAnswer) }
    }
}
