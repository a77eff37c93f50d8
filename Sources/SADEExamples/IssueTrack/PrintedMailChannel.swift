import SADENotification

/// An e-mail channel for demos without a mail server: it tells the story of each mail
/// instead of sending it.
public struct PrintedMailChannel: NotificationChannel {
    /// `email`, so that it stands in for ``EmailChannel``.
    public let name = "email"
    private let narrator: Narrator

    /// Creates the channel; mails are told through `narrator`.
    public init(narrator: Narrator) {
        self.narrator = narrator
    }

    /// Notifications with e-mail recipients.
    public func accepts(_ notification: Notice) -> Bool { !notification.emailAddresses.isEmpty }

    /// Prints the mail's recipients and subject.
    public func deliver(_ notification: Notice) async throws {
        narrator.say("Mail", "(no --smtp: printed, not sent) to \(notification.emailAddresses.joined(separator: ", ")): \(notification.title)")
    }
}
