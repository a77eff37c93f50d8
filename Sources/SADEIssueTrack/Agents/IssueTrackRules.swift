import Foundation

/// The paper's rules, in one place: which issues are offered to colleagues, and
/// when an employee takes or refuses one.
///
/// An issue is *urgent* when it is critical, or high with its deadline within
/// ``shortDeadline`` (two days; an overdue deadline is within it too). Only urgent issues
/// are offered through Contract Net; medium and low ones never are.
///
/// An employee who is not connected refuses. One who works on a critical or high issue
/// due within the short deadline refuses, naming it. Everyone else accepts: free, working
/// only on medium or low issues, or on critical/high issues whose deadlines are further
/// away (the paper names no reason to refuse those).
public struct IssueTrackRules: Hashable, Sendable {
    /// The paper's "short deadline": two days.
    public var shortDeadline: Duration

    /// Creates the rules; the paper's two days by default.
    public init(shortDeadline: Duration = .seconds(2 * 24 * 3600)) {
        self.shortDeadline = shortDeadline
    }

    /// Whether the deadline of `issue` is no later than ``shortDeadline`` from `now`.
    public func isDueSoon(_ issue: Issue, at now: Date) -> Bool {
        issue.deadline.timeIntervalSince(now) <= TimeInterval(shortDeadline.components.seconds)
    }

    /// Whether `issue` is offered to the colleagues offering its service
    /// (InformIssueToSolve's criterion): critical, or high and due soon.
    public func isOffered(_ issue: Issue, at now: Date) -> Bool {
        switch issue.priority {
        case .critical: true
        case .high: isDueSoon(issue, at: now)
        case .medium, .low: false
        }
    }

    /// Why `issue` is not offered, or `nil` if it is.
    public func reasonNotOffered(_ issue: Issue, at now: Date) -> String? {
        switch issue.priority {
        case .critical: nil
        case .high: isDueSoon(issue, at: now) ? nil : "high priority, but due later than two days from now"
        case .medium, .low: "\(issue.priority.rawValue) priority issues are not offered to colleagues"
        }
    }

    /// How an employee answers an offer (NotifyIssueWasTaken's reasons), given the issues
    /// they work on and whether they are connected to the company network.
    public func answer(workingOn workload: [Issue], isConnected: Bool, at now: Date) -> IssueAnswer {
        guard isConnected else { return .refuse(.notConnected) }
        let urgent = workload
            .filter { [.critical, .high].contains($0.priority) && isDueSoon($0, at: now) }
            .min { ($0.deadline, $0.id ?? 0) < ($1.deadline, $1.id ?? 0) }
        if let urgent {
            return .refuse(.busyWithUrgentIssue(id: urgent.id ?? 0, priority: urgent.priority, deadline: urgent.deadline))
        }
        if workload.isEmpty { return .accept(.free) }
        if workload.allSatisfy({ [.medium, .low].contains($0.priority) }) { return .accept(.onlyMediumOrLowWork(workload.count)) }
        return .accept(.noShortDeadlines(workload.count))
    }
}
