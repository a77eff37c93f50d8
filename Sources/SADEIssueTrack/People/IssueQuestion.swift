import Foundation
import SADEACL

/// The question an employee's agent puts to its employee once their proposal is
/// accepted (iMobile §IV: the rules choose whom to ask, the employee decides): take issue
/// N? It is open until ``deadline``.
public struct IssueQuestion: Hashable, Sendable, Codable, Identifiable {
    /// The question's id; also the id of the notice that carries it to the employee's phone.
    public let id: UUID
    /// The issue offered.
    public let issue: Issue
    /// Who is asked, by employee id.
    public let employee: String
    /// When it was asked.
    public let asked: Date
    /// When silence counts as *Can't*.
    public let deadline: Date

    /// A question asked at `asked`, open until `deadline`.
    public init(id: UUID = UUID(), issue: Issue, employee: String, asked: Date, deadline: Date) {
        self.id = id
        self.issue = issue
        self.employee = employee
        self.asked = asked
        self.deadline = deadline
    }
}

/// Asks an employee whether they take an issue their agent was chosen for, and waits
/// for the answer (or the deadline).
public typealias AskEmployee = @Sendable (Issue) async -> EmployeeDecision

/// What the employee answered.
public enum EmployeeDecision: String, Hashable, Sendable, Codable {
    /// *Take it*: the issue becomes theirs.
    case take
    /// *Can't*: the next candidate is asked.
    case decline
    /// Nothing before the deadline: as *Can't*.
    case noAnswer = "no-answer"
}

/// Why a chosen employee did not take the issue after all; the content of their agent's
/// Contract Net `failure`: `(declined :by tony)` or `(no-answer :by tony)`.
public struct Declination: Error, Hashable, Sendable, Codable, CustomStringConvertible {
    /// Who declined.
    public let employee: String
    /// ``EmployeeDecision/decline`` or ``EmployeeDecision/noAnswer``.
    public let decision: EmployeeDecision

    /// The ACL content, which is also how the error reads.
    public var description: String {
        ACLExpression.list([.word(decision == .decline ? "declined" : "no-answer"), .word(":by"), .string(employee)]).description
    }

    init(employee: String, decision: EmployeeDecision) {
        self.employee = employee
        self.decision = decision
    }

    /// Reads a `failure` content; `nil` if it is not a declination.
    public init?(content: String?) {
        guard let content, let expression = try? ACLExpression(parsing: content), let employee = expression.parameter("by")?.text else { return nil }
        switch expression.head {
        case "declined": decision = .decline
        case "no-answer": decision = .noAnswer
        default: return nil
        }
        self.employee = employee
    }

    /// A phrase for stories: `can't take it`, `did not answer in time`.
    public var phrase: String {
        decision == .decline ? "can't take it" : "did not answer in time"
    }
}
