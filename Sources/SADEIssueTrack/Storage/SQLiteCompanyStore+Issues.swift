import Foundation
import GRDB

extension SQLiteCompanyStore {
    public func register(_ issue: Issue) async throws(IssueTrackError) -> Issue {
        try write { db in
            guard try Service.fetchOne(db, key: issue.service) != nil else { throw IssueTrackError.unknownService(issue.service) }
            var stored = issue
            stored.id = nil
            try stored.insert(db)
            return stored
        }
    }

    public func issue(_ id: Int64) async throws(IssueTrackError) -> Issue? {
        try read { db in try Issue.fetchOne(db, key: id) }
    }

    public func work(of employee: String) async throws(IssueTrackError) -> [Issue] {
        try read { db in
            try Issue.filter(Column("assignee") == employee && Column("status") == IssueStatus.inProgress.rawValue)
                .order(Column("deadline"), Column("id")).fetchAll(db)
        }
    }

    public func assign(_ id: Int64, to employee: String) async throws(IssueTrackError) {
        try update(id) { issue in
            issue.status = .inProgress
            issue.assignee = employee
        }
    }

    public func resolve(_ id: Int64, solved: Bool, note: String?) async throws(IssueTrackError) {
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

    // MARK: Rounds

    public func setRound(_ round: RoundState, of id: Int64) async throws(IssueTrackError) {
        let state = try StoredRound.encoded(round)
        try write { db in
            guard try Issue.exists(db, key: id) else { throw IssueTrackError.unknownIssue(id) }
            try db.execute(
                sql: "INSERT INTO issueRound (issueID, state) VALUES (?, ?) ON CONFLICT(issueID) DO UPDATE SET state = excluded.state",
                arguments: [id, state])
        }
    }

    public func rounds(of ids: [Int64]?) async throws(IssueTrackError) -> [Int64: RoundState] {
        let stored = try read { db in
            let rows =
                if let ids {
                    try Row.fetchAll(db, sql: "SELECT issueID, state FROM issueRound WHERE issueID IN (SELECT value FROM json_each(?))", arguments: [
                        String(decoding: try JSONEncoder().encode(ids), as: UTF8.self)
                    ])
                } else {
                    try Row.fetchAll(db, sql: "SELECT issueID, state FROM issueRound")
                }
            return rows.map { (id: $0["issueID"] as Int64, state: $0["state"] as String) }
        }
        return try StoredRound.decoded(stored)
    }

    public func interruptRunningRounds() async throws(IssueTrackError) -> [Int64] {
        let running = try StoredRound.encoded(.running)
        return try write { db in
            let issues = try Issue.fetchAll(
                db, sql: "SELECT issue.* FROM issue JOIN issueRound ON issueRound.issueID = issue.id WHERE state = ? OR state LIKE ? ORDER BY issue.id",
                arguments: [running, Self.askingPattern])
            for issue in issues {
                try db.execute(sql: "UPDATE issueRound SET state = ? WHERE issueID = ?", arguments: [try StoredRound.encoded(Self.interrupted(issue)), issue.id])
            }
            return issues.compactMap(\.id)
        }
    }
}

/// A ``RoundState`` as both stores keep it: JSON text.
enum StoredRound {
    static func encoded(_ round: RoundState) throws(IssueTrackError) -> String {
        do {
            return String(decoding: try JSONEncoder().encode(round), as: UTF8.self)
        } catch {
            throw .storage("a round could not be encoded: \(error)")
        }
    }

    /// The rounds by issue; an unreadable one is a storage error naming its issue.
    static func decoded(_ rows: [(id: Int64, state: String)]) throws(IssueTrackError) -> [Int64: RoundState] {
        var rounds: [Int64: RoundState] = [:]
        for (id, state) in rows {
            do {
                rounds[id] = try JSONDecoder().decode(RoundState.self, from: Data(state.utf8))
            } catch {
                throw .storage("the round of issue #\(id) is unreadable: \(error)")
            }
        }
        return rounds
    }
}
