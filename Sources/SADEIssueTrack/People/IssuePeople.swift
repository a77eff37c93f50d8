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

/// The questions open to employees: each opened (its deadline running) before anyone is
/// shown it, so that an answer never comes too early; then awaited until answered or past
/// its deadline.
actor IssueQuestions {
    private struct Pending {
        let question: IssueQuestion
        let timer: Task<Void, any Error>
        var decision: EmployeeDecision?
        var waiter: CheckedContinuation<EmployeeDecision, Never>?
    }

    private var pending: [UUID: Pending] = [:]

    /// Opens `question`: from now on it can be answered, and it closes unanswered
    /// (``EmployeeDecision/noAnswer``) once `clock` (the agents' platform clock) reads
    /// `deadline`.
    func open(_ question: IssueQuestion, until deadline: Duration, on clock: PlatformClock) {
        let timer = Task {
            try await clock.sleep(for: deadline - clock.elapsed)
            self.close(question.id, with: .noAnswer)
        }
        pending[question.id] = Pending(question: question, timer: timer)
    }

    /// Waits for the answer to question `id` (opened with ``open(_:until:on:)``).
    func answer(to id: UUID) async -> EmployeeDecision {
        guard let entry = pending[id] else { return .noAnswer }
        if let decision = entry.decision {
            pending[id] = nil
            return decision
        }
        return await withCheckedContinuation { pending[id]?.waiter = $0 }
    }

    /// Answers question `id`; the question, or `nil` if it is not open (answered already,
    /// past its deadline, or never asked here).
    @discardableResult
    func close(_ id: UUID, with decision: EmployeeDecision) -> IssueQuestion? {
        guard var entry = pending[id], entry.decision == nil else { return nil }
        entry.timer.cancel()
        if let waiter = entry.waiter {
            pending[id] = nil
            waiter.resume(returning: decision)
        } else {
            entry.decision = decision
            pending[id] = entry
        }
        return entry.question
    }

    /// Closes the open questions unanswered: every one (the office closes), or those put
    /// to `employee` (their agent stops).
    func closeAll(of employee: String? = nil) {
        for (id, entry) in pending where employee == nil || entry.question.employee == employee { close(id, with: .noAnswer) }
    }
}
