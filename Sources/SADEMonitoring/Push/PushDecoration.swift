import Foundation
import SADENotification

/// What the monitoring system's pushes carry besides the notice: an alert's
/// *Acknowledge* (with its one-time token) and *Open*, an issue-track question's *Take it*
/// and *Can't* (the notice's id is the question's), a home alarm's *Confirm* and its
/// messages page, or the app.
public struct PushDecoration: Sendable {

    let tokens: PushActionTokens
    let clock: @Sendable () -> Date

    /// The url and buttons of the push of `notice` to `account`. (An alert's token names
    /// the notice: the alert is looked up when the button is pressed, as the book may
    /// record it only after the push went out.)
    /// The flat a home message's notice is about, from its key `home:<flat>:<message key>`.
    public static func flat(ofHomeKey key: String) -> Int64? {
        let parts = key.split(separator: ":", maxSplits: 2)
        guard parts.count == 3, parts[0] == "home" else { return nil }
        return Int64(parts[1])
    }

    func decorate(_ notice: Notice, for account: String, role: UserRole? = nil) -> (url: String, actions: [WebPushMessage.Action]) {
        let key = notice.deduplicationKey ?? ""
        if key.hasPrefix(AlertDispatcher.keyPrefix), notice.severity.needsAcknowledgement {
            let token = tokens.issue("acknowledge", notice: notice.id, account: account, now: clock())
            return ("/#/alerts", [.init(action: "acknowledge", title: "Acknowledge", token: token), .init(action: "open", title: "Open")])
        }
        if key.hasPrefix(IssueNoticeKey.prefix) {
            guard IssueNoticeKey.isQuestion(key) else { return ("/#/issues", [.init(action: "open", title: "Open")]) }
            let now = clock()
            return ("/#/issues", [
                .init(action: "take", title: "Take it", token: tokens.issue("take", notice: notice.id, account: account, now: now)),
                .init(action: "decline", title: "Can't", token: tokens.issue("decline", notice: notice.id, account: account, now: now)),
            ])
        }
        if let flat = Self.flat(ofHomeKey: key) {
            let open = WebPushMessage.Action(action: "open", title: "Open")
            // A relative only looks (and a gateway confirms nothing): no Confirm on their lock screen.
            guard notice.severity.needsAcknowledgement, role != .relative, role != .device else { return ("/#/homes/\(flat)/messages", [open]) }
            let token = tokens.issue("confirm", notice: notice.id, account: account, now: clock())
            return ("/#/homes/\(flat)/messages", [.init(action: "confirm", title: "Confirm", token: token), open])
        }
        return ("/", [.init(action: "open", title: "Open")])
    }
}

/// How the issue track's notices are keyed, so that their pushes carry the right buttons
/// and a newer one replaces the older on the lock screen.
public enum IssueNoticeKey {
    static let prefix = "issue:"

    /// Asking `employee` whether they take issue `issue` (*Take it*, *Can't*): `issue:7:question:tony`.
    public static func question(_ issue: Int64, to employee: String) -> String { "\(prefix)\(issue):question:\(employee)" }
    /// Telling the reporter who took issue `issue`.
    public static func taken(_ issue: Int64) -> String { "\(prefix)\(issue):taken" }
    /// Telling the reporter whether issue `issue` was solved.
    public static func result(_ issue: Int64) -> String { "\(prefix)\(issue):result" }

    /// Telling `employee` that the question about issue `issue` closed unanswered: a later
    /// state of the question (same topic: it replaces the question on the lock screen).
    public static func closed(_ issue: Int64, to employee: String) -> String { question(issue, to: employee) + "#closed" }

    static func isQuestion(_ key: String) -> Bool {
        guard !key.contains("#") else { return false }
        let parts = key.split(separator: ":", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "issue" && parts[2] == "question"
    }
}
