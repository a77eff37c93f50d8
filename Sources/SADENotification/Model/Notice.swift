import Foundation

/// How urgent a notification is (the message classes of the AAL thesis, Table 6.1).
public enum NotificationSeverity: String, Hashable, Sendable, Codable, CaseIterable, Comparable {
    /// Recorded, not pushed to anyone's attention.
    case silent
    /// Good to know.
    case information
    /// Needs attention soon; open until acknowledged.
    case warning
    /// Needs attention now; open until acknowledged.
    case alarm

    /// Whether a health-care worker must acknowledge it (warnings and alarms).
    public var needsAcknowledgement: Bool { self >= .warning }

    public static func < (lhs: NotificationSeverity, rhs: NotificationSeverity) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// Who a notification is for: a user of the app (by id) or an e-mail address.
public enum Recipient: Hashable, Sendable, Codable, CustomStringConvertible {
    /// A user, e.g. the nurse `nurse1`; the app channel delivers to them.
    case user(String)
    /// An e-mail address; the e-mail channel delivers to it.
    case email(String)

    /// `user:nurse1` or `email:ward@example.org`.
    public var description: String {
        switch self {
        case .user(let id): "user:\(id)"
        case .email(let address): "email:\(address)"
        }
    }
}

/// Something to tell people: SADE4Health's `Notification` (its `AppNotification` and
/// `EmailNotification` are channels here). Named `Notice` so that it does not clash
/// with Foundation's `Notification` in files that import both.
public struct Notice: Hashable, Sendable, Codable, Identifiable {
    /// Unique; kept through the outbox and every channel.
    public var id: UUID
    /// Who should get it.
    public var recipients: [Recipient]
    /// How urgent it is.
    public var severity: NotificationSeverity
    /// A short title, the e-mail subject.
    public var title: String
    /// The text.
    public var body: String
    /// What it is about, e.g. a patient's id.
    public var subject: String?
    /// When it was created.
    public var createdAt: Date
    /// Notifications with the same key while one is undelivered or open are one: the
    /// outbox accepts the first and answers later ones with it.
    public var deduplicationKey: String?
    /// When it is worth nothing any more (a question whose deadline passed): a push service
    /// keeps it no longer than that. `nil`: as long as its severity says.
    public var expiresAt: Date?

    /// Creates a notification.
    public init(
        id: UUID = UUID(), recipients: [Recipient], severity: NotificationSeverity, title: String, body: String,
        subject: String? = nil, createdAt: Date = Date(), deduplicationKey: String? = nil, expiresAt: Date? = nil
    ) {
        self.expiresAt = expiresAt
        self.id = id
        self.recipients = recipients
        self.severity = severity
        self.title = title
        self.body = body
        self.subject = subject
        self.createdAt = createdAt
        self.deduplicationKey = deduplicationKey
    }

    /// The app users among the recipients.
    public var users: [String] {
        recipients.compactMap { if case .user(let id) = $0 { id } else { nil } }
    }

    /// The e-mail addresses among the recipients.
    public var emailAddresses: [String] {
        recipients.compactMap { if case .email(let address) = $0 { address } else { nil } }
    }
}
