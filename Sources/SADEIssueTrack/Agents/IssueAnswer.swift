import Foundation
import SADEACL

/// An employee's answer to an offered issue.
public enum IssueAnswer: Hashable, Sendable {
    /// Takes it (a Contract Net `propose`).
    case accept(AcceptReason)
    /// Does not take it (a `refuse`).
    case refuse(RefusalReason)
}

/// Why an employee can take an issue; carried as the content of the `propose`.
public enum AcceptReason: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Works on nothing: `(free)`.
    case free
    /// Works only on this many medium or low issues: `(only-medium-or-low-work :issues 2)`.
    case onlyMediumOrLowWork(Int)
    /// Works on this many issues, none critical or high with a short deadline:
    /// `(no-short-deadlines :issues 1)`.
    case noShortDeadlines(Int)

    /// The ACL content.
    public var content: String {
        switch self {
        case .free: "(free)"
        case .onlyMediumOrLowWork(let count): "(only-medium-or-low-work :issues \(count))"
        case .noShortDeadlines(let count): "(no-short-deadlines :issues \(count))"
        }
    }

    /// Reads a `propose` content; `nil` if it is not one of these.
    public init?(content: String?) {
        guard let content, let expression = try? ACLExpression(parsing: content) else { return nil }
        let count = expression.parameter("issues")?.text.flatMap { Int($0) }
        switch expression.head {
        case "free": self = .free
        case "only-medium-or-low-work": self = .onlyMediumOrLowWork(count ?? 0)
        case "no-short-deadlines": self = .noShortDeadlines(count ?? 0)
        default: return nil
        }
    }

    /// A phrase for stories: `is free`.
    public var description: String {
        switch self {
        case .free: "is free"
        case .onlyMediumOrLowWork(let count): "works only on \(count) medium/low issue(s)"
        case .noShortDeadlines(let count): "works on \(count) issue(s), none due within two days"
        }
    }
}

/// Why an employee does not take an issue; carried as the content of the `refuse`.
public enum RefusalReason: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Works on a critical or high issue due soon:
    /// `(busy-with-urgent-issue :issue 7 :priority critical :deadline "2026-11-23T09:00:00Z")`.
    case busyWithUrgentIssue(id: Int64, priority: IssuePriority, deadline: Date)
    /// Not connected to the company network: `(not-connected)`.
    case notConnected
    /// The offer could not be read: `(unreadable-offer)`.
    case unreadableOffer

    /// The ACL content.
    public var content: String {
        switch self {
        case .busyWithUrgentIssue(let id, let priority, let deadline):
            ACLExpression.list([
                .word("busy-with-urgent-issue"), .word(":issue"), .number("\(id)"), .word(":priority"), .word(priority.rawValue),
                .word(":deadline"), .string(deadline.formatted(.iso8601)),
            ]).description
        case .notConnected: "(not-connected)"
        case .unreadableOffer: "(unreadable-offer)"
        }
    }

    /// Reads a `refuse` content; `nil` if it is not one of these.
    public init?(content: String?) {
        guard let content, let expression = try? ACLExpression(parsing: content) else { return nil }
        switch expression.head {
        case "busy-with-urgent-issue":
            guard let id = expression.parameter("issue")?.text.flatMap({ Int64($0) }),
                let priority = expression.parameter("priority")?.text.flatMap(IssuePriority.init(rawValue:)),
                let deadline = expression.parameter("deadline")?.text.flatMap({ try? Date($0, strategy: .iso8601) })
            else { return nil }
            self = .busyWithUrgentIssue(id: id, priority: priority, deadline: deadline)
        case "not-connected": self = .notConnected
        case "unreadable-offer": self = .unreadableOffer
        default: return nil
        }
    }

    /// A phrase for stories: `is busy with critical issue #7 due …`.
    public var description: String {
        switch self {
        case .busyWithUrgentIssue(let id, let priority, let deadline):
            "is busy with \(priority.rawValue) issue #\(id) due \(deadline.formatted(.iso8601))"
        case .notConnected: "is not connected to the company network"
        case .unreadableOffer: "could not read the offer"
        }
    }
}
