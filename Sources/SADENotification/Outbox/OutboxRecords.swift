import Foundation

/// Where a notification stands on one channel.
public struct DeliveryStatus: Hashable, Sendable {
    /// What became of it.
    public enum State: String, Hashable, Sendable {
        /// Waiting for its (next) attempt.
        case pending
        /// The channel took it.
        case delivered
        /// Given up after too many attempts, or refused for good; reported, kept.
        case dead
    }

    /// The notification.
    public let notificationID: UUID
    /// The channel's name.
    public let channel: String
    /// Pending, delivered or dead.
    public let state: State
    /// Attempts made so far.
    public let attempts: Int
    /// When the next attempt is due (pending only).
    public let nextAttemptAt: Date?
    /// The last attempt's error, if it failed.
    public let lastError: String?
    /// When it was delivered.
    public let deliveredAt: Date?
}

/// One try to deliver a notification on a channel.
public struct DeliveryAttempt: Hashable, Sendable {
    /// The notification.
    public let notificationID: UUID
    /// The channel.
    public let channel: String
    /// When it was made.
    public let at: Date
    /// Whether the channel took the notification.
    public let succeeded: Bool
    /// Why not, if it failed.
    public let error: String?
}

/// What the outbox reports as it works, for dashboards, logs and tests.
public enum OutboxEvent: Hashable, Sendable {
    /// A channel took a notification.
    case delivered(UUID, channel: String)
    /// An attempt failed; another comes at `retryAt`.
    case failed(UUID, channel: String, attempt: Int, error: String, retryAt: Date)
    /// The outbox gave up on a notification for a channel (dead letter).
    case dead(UUID, channel: String, error: String)
}

/// A step of an escalation that was carried out.
public struct EscalationRecord: Hashable, Sendable {
    /// The alert being escalated.
    public let alertID: UUID
    /// The step's index in the policy (0 is the first notice).
    public let step: Int
    /// When it was taken.
    public let at: Date
    /// The notification sent for the step.
    public let notificationID: UUID
    /// Who it went to.
    public let recipients: [Recipient]
}

/// An alert as ``AlertDesk`` raised it.
package struct RaisedAlert: Sendable {
    /// The alert as stored: the new one, or the open duplicate that stands for it.
    package let notice: Notice
    /// The escalation steps taken with it when known without a read (a new alert's
    /// immediate step, or none); `nil` for a duplicate, whose steps are in the outbox.
    package let stepsTaken: [EscalationRecord]?
}
