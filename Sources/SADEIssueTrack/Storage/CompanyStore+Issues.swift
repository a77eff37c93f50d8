import Foundation
import GRDB

extension CompanyStore {
    /// Stores a new issue, open; returns it with its number.
    ///
    /// - Throws: ``IssueTrackError/unknownService(_:)`` if its service is not registered.
    public func register(_ issue: Issue) throws(IssueTrackError) -> Issue {
        try write { db in
            guard try Service.fetchOne(db, key: issue.service) != nil else { throw IssueTrackError.unknownService(issue.service) }
            var stored = issue
            stored.id = nil
            try stored.insert(db)
            return stored
        }
    }

    /// The issue with this number, if any.
    public func issue(_ id: Int64) throws(IssueTrackError) -> Issue? {
        try read { db in try Issue.fetchOne(db, key: id) }
    }

    /// The issues `employee` is working on (in progress, assigned to them), by deadline.
    public func work(of employee: String) throws(IssueTrackError) -> [Issue] {
        try read { db in
            try Issue.filter(Column("assignee") == employee && Column("status") == IssueStatus.inProgress.rawValue)
                .order(Column("deadline"), Column("id")).fetchAll(db)
        }
    }

    /// Records that `employee` took issue `id`: in progress, assigned to them.
    public func assign(_ id: Int64, to employee: String) throws(IssueTrackError) {
        try update(id) { issue in
            issue.status = .inProgress
            issue.assignee = employee
        }
    }

    /// Records the result its assignee reported: solved or not, with their note.
    public func resolve(_ id: Int64, solved: Bool, note: String?) throws(IssueTrackError) {
        try update(id) { issue in
            issue.status = solved ? .solved : .unsolved
            issue.resolutionNote = note
        }
    }

    private func update(_ id: Int64, _ change: @escaping @Sendable (inout Issue) -> Void) throws(IssueTrackError) {
        try write { db in
            guard var issue = try Issue.fetchOne(db, key: id) else { throw IssueTrackError.unknownIssue(id) }
            change(&issue)
            try issue.update(db)
        }
    }
}
