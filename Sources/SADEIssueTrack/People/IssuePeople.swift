import Foundation
import SADECore

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
    private struct Pending {
        let question: IssueQuestion
        let answer: CheckedContinuation<EmployeeDecision, Never>
        let timer: Task<Void, any Error>
    }

    private var open: [UUID: Pending] = [:]

    /// Puts `question` and waits for its answer; ``EmployeeDecision/noAnswer`` once `clock`
    /// (the agents' platform clock) reads `deadline` — an instant fixed before the question
    /// was shown to anyone, so that time counted meanwhile counts.
    func ask(_ question: IssueQuestion, until deadline: Duration, on clock: PlatformClock) async -> EmployeeDecision {
        await withCheckedContinuation { continuation in
            let timer = Task {
                try await clock.sleep(for: deadline - clock.elapsed)
                self.close(question.id, with: .noAnswer)
            }
            open[question.id] = Pending(question: question, answer: continuation, timer: timer)
        }
    }

    /// Answers question `id`; the question, or `nil` if it is not open (answered already,
    /// past its deadline, or never asked here).
    @discardableResult
    func close(_ id: UUID, with decision: EmployeeDecision) -> IssueQuestion? {
        guard let pending = open.removeValue(forKey: id) else { return nil }
        pending.timer.cancel()
        pending.answer.resume(returning: decision)
        return pending.question
    }

    /// Closes every open question unanswered (the office closes).
    func closeAll() {
        for id in Array(open.keys) { close(id, with: .noAnswer) }
    }
}
