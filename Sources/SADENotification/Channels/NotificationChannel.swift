/// A way to deliver notifications (the notification hot spot): in-app, e-mail,
/// webhook, or your own.
///
/// The outbox calls ``deliver(_:)`` until it succeeds; throw to have it retried later.
public protocol NotificationChannel: Sendable {
    /// Unique among the outbox's channels, e.g. `app`, `email`, `webhook`; recorded
    /// with every delivery attempt.
    var name: String { get }

    /// Whether this channel has anything to do for `notification` (e.g. the e-mail
    /// channel only when it has e-mail recipients).
    func accepts(_ notification: Notice) -> Bool

    /// Delivers the notification; returns only when the other side took it.
    func deliver(_ notification: Notice) async throws
}

/// Why a channel could not deliver a notification.
public struct ChannelError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The channel.
    public let channel: String
    /// What went wrong, e.g. the SMTP server's reply.
    public let reason: String
    /// Whether trying again cannot help (e.g. a mailbox that does not exist).
    public let isPermanent: Bool
    /// How long the other side asked to be left alone (HTTP `Retry-After`): the outbox
    /// waits at least this long before the next attempt.
    public let retryAfter: Duration?

    /// Creates an error.
    public init(channel: String, reason: String, isPermanent: Bool = false, retryAfter: Duration? = nil) {
        self.channel = channel
        self.reason = reason
        self.isPermanent = isPermanent
        self.retryAfter = retryAfter
    }

    /// `email: 550 no such user`.
    public var description: String { "\(channel): \(reason)" }
}
