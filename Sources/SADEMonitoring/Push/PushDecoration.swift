import Foundation
import SADENotification

/// What the monitoring system's pushes carry besides the notice: an alert's
/// *Acknowledge* (with its one-time token) and *Open*, a home's messages page, or the app.
struct PushDecoration: Sendable {
    let tokens: PushActionTokens
    let clock: @Sendable () -> Date

    /// The url and buttons of the push of `notice` to `account`. (An alert's token names
    /// the notice: the alert is looked up when the button is pressed, as the book may
    /// record it only after the push went out.)
    func decorate(_ notice: Notice, for account: String) -> (url: String, actions: [WebPushMessage.Action]) {
        let key = notice.deduplicationKey ?? ""
        if key.hasPrefix(AlertDispatcher.keyPrefix), notice.severity.needsAcknowledgement {
            let token = tokens.issue("acknowledge", notice: notice.id, account: account, now: clock())
            return ("/#/alerts", [.init(action: "acknowledge", title: "Acknowledge", token: token), .init(action: "open", title: "Open")])
        }
        if key.hasPrefix("home:"), let flat = key.split(separator: ":").dropFirst().first {
            return ("/#/homes/\(flat)/messages", [.init(action: "open", title: "Open")])
        }
        return ("/", [.init(action: "open", title: "Open")])
    }
}
