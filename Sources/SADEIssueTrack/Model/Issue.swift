import Foundation

/// How urgent an issue is (iMobile §IV: critical, high, medium, low).
public enum IssuePriority: String, Hashable, Sendable, Codable, CaseIterable {
    /// Damage is being done now.
    case critical
    /// Must be solved soon.
    case high
    /// Can wait for the normal flow of work.
    case medium
    /// Whenever there is time.
    case low
}

/// Where an issue stands.
public enum IssueStatus: String, Hashable, Sendable, Codable, CaseIterable {
    /// Registered, nobody works on it.
    case open
    /// An employee took it and works on it.
    case inProgress = "in-progress"
    /// The employee reported it solved.
    case solved
    /// The employee reported that they could not solve it.
    case unsolved
}

/// A registered issue that needs to be solved (iMobile's `Issue`).
public struct Issue: Hashable, Sendable, Codable, Identifiable {
    /// The issue's number; `nil` until stored.
    public var id: Int64?
    /// A short title.
    public var title: String
    /// What is wrong.
    public var description: String
    /// How urgent it is.
    public var priority: IssuePriority
    /// When it must be solved by.
    public var deadline: Date
    /// The name of the ``Service`` that can solve it, e.g. `infrastructure`.
    public var service: String
    /// Where it stands.
    public var status: IssueStatus
    /// The id of the ``Employee`` working on it or who worked on it.
    public var assignee: String?
    /// The id of the employee who registered it.
    public var reporter: String?
    /// What the assignee reported with the result.
    public var resolutionNote: String?

    /// Creates an issue, open and unassigned unless told otherwise.
    public init(
        id: Int64? = nil, title: String, description: String, priority: IssuePriority, deadline: Date, service: String,
        status: IssueStatus = .open, assignee: String? = nil, reporter: String? = nil, resolutionNote: String? = nil
    ) {
        self.id = id
        self.title = title
        self.description = description
        self.priority = priority
        self.deadline = deadline
        self.service = service
        self.status = status
        self.assignee = assignee
        self.reporter = reporter
        self.resolutionNote = resolutionNote
    }

    /// `#12 "Core switch down"` for stories and e-mails.
    public var label: String { "#\(id.map(String.init) ?? "?") \"\(title)\"" }
}
