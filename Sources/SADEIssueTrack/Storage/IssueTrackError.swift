import Foundation

/// Why an issue-track operation failed.
public enum IssueTrackError: Error, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The database could not be opened, read or written.
    case storage(String)
    /// The database or the office (on another node) cannot be reached now; try again.
    case unavailable(String)
    /// No employee has this id.
    case unknownEmployee(String)
    /// No service has this name.
    case unknownService(String)
    /// No issue has this number.
    case unknownIssue(Int64)
    /// The id cannot name an employee and their agent.
    case invalidEmployeeID(String)
    /// This employee's agent has no ``IssueTracker``, so it cannot register issues.
    case notAReporter(String)
    /// An acceptance came for an offer this agent did not propose for (conversation id).
    case noOpenOffer(String)
    /// The issue is not being worked on, so there is no result to report.
    case notInProgress(Int64)
    /// The employee's agent could not start (e.g. its services could not be published).
    case agentNotStarted(String, reason: String)
    /// A result for this issue is being reported already.
    case resultPending(Int64)
    /// The question (by id) is not open: answered already, or past its deadline.
    case questionClosed(UUID)
    /// The result was sent, but the reporter's agent did not record it in time.
    case resultNotRecorded(Int64)

    /// A sentence saying what went wrong.
    public var description: String {
        switch self {
        case .storage(let reason): "issue track database: \(reason)"
        case .unavailable(let reason): "the issue track cannot be reached now, try again: \(reason)"
        case .unknownEmployee(let id): "no employee has the id '\(id)'"
        case .unknownService(let name): "the company offers no service called '\(name)'; register it first"
        case .unknownIssue(let id): "there is no issue #\(id)"
        case .invalidEmployeeID(let id): "'\(id)' cannot be an employee id: use letters, digits, '-' and '_' only, and not ams or df"
        case .notAReporter(let id): "\(id)'s agent has no company store and outbox (IssueTracker): it cannot register issues"
        case .noOpenOffer(let conversation): "no open offer in conversation '\(conversation)'"
        case .notInProgress(let id): "issue #\(id) is not in progress: nobody works on it"
        case .agentNotStarted(let id, let reason): "\(id)'s agent could not start: \(reason)"
        case .resultPending(let id): "the result of issue #\(id) is being reported already"
        case .questionClosed: "that question is closed: it was answered already, or its deadline passed"
        case .resultNotRecorded(let id): "the result of issue #\(id) was sent, but its reporter's agent did not record it in time"
        }
    }
}
