import Foundation
import Logging

/// The e-mail channel (SADE4Health's `EmailNotification`): one message per
/// notification to all its e-mail recipients, through an SMTP server.
public struct EmailChannel: NotificationChannel {
    /// `email`.
    public let name = "email"
    /// The SMTP server and sender.
    public let configuration: SMTPConfiguration

    /// Creates the channel.
    public init(_ configuration: SMTPConfiguration) {
        self.configuration = configuration
    }

    /// Notifications with e-mail recipients.
    public func accepts(_ notification: Notice) -> Bool { !notification.emailAddresses.isEmpty }

    /// Sends the notification as one e-mail; the subject carries the severity for
    /// warnings and alarms.
    public func deliver(_ notification: Notice) async throws {
        for address in [configuration.sender] + notification.emailAddresses where !EmailMessage.isAcceptable(address: address) {
            throw ChannelError(channel: name, reason: "'\(address)' is not an e-mail address this channel can send to", isPermanent: true)
        }
        let prefix = notification.severity.needsAcknowledgement ? "[\(notification.severity.rawValue.uppercased())] " : ""
        var body = notification.body
        if let subject = notification.subject { body += "\n\nAbout: \(subject)" }
        let message = EmailMessage(
            from: configuration.sender, fromName: configuration.senderName, to: notification.emailAddresses,
            subject: prefix + notification.title, body: body, date: notification.createdAt,
            messageID: "\(notification.id.uuidString.lowercased())@sade",
            extraHeaders: [("X-SADE-Severity", notification.severity.rawValue), ("X-SADE-Notice", notification.id.uuidString)])
        let client = SMTPClient(configuration: configuration) { refusals in
            Logger(label: "sade.notifications.email").warning(
                "some recipients were refused", metadata: ["notice": "\(notification.id)", "refusals": "\(refusals.map(\.reason))"])
        }
        try await client.send(message)
    }
}
