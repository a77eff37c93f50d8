import Crypto
import Foundation

/// What a push carries to the service worker (JSON, encrypted): the lock screen's
/// text, the notice it stands for and what can be done from the lock screen.
public struct WebPushMessage: Hashable, Sendable, Codable {
    /// Something the person can do from the notification.
    public struct Action: Hashable, Sendable, Codable {
        /// What it does, e.g. `acknowledge`, `open`, `confirm`, `take`, `decline`.
        public var action: String
        /// The button's text.
        public var title: String
        /// The one-time token the service worker posts back (`nil` for `open`).
        public var token: String?

        /// An action.
        public init(action: String, title: String, token: String? = nil) {
            self.action = action
            self.title = title
            self.token = token
        }
    }

    /// The notice.
    public var notice: UUID
    /// The title on the lock screen.
    public var title: String
    /// The text under it.
    public var body: String
    /// `information`, `warning` or `alarm`.
    public var severity: NotificationSeverity
    /// The notification's tag: a newer state of the same thing replaces the older one.
    public var tag: String
    /// Where the app opens when the notification is tapped.
    public var url: String
    /// The buttons.
    public var actions: [Action]
    /// When the notice was made.
    public var createdAt: Date
    /// How long the push service keeps it for a phone that is off (`TTL`, seconds): as
    /// long as its severity says (``timeToLive(for:)``), no longer than the notice is worth.
    public var timeToLive: Int

    /// The message for `notice`, its text cut to fit a push. What the notice is about
    /// (its ``Notice/subject``, e.g. a patient's id) is left out of the text: a lock
    /// screen is seen by anyone near the phone, and the place (ward and bed, flat) says
    /// enough to act.
    public init(notice: Notice, url: String = "/", actions: [Action] = []) {
        self.notice = notice.id
        let title = Self.withoutSubject(notice.title, notice.subject)
        let body = Self.withoutSubject(notice.body, notice.subject)
        self.title = Self.cut(title, toBytes: Self.titleLimit)
        self.body = Self.cut(body, toBytes: Self.bodyLimit)
        severity = notice.severity
        tag = Self.topic(of: notice)
        self.url = url
        self.actions = actions
        createdAt = notice.createdAt
        timeToLive = Self.timeToLive(for: notice.severity)
        if let expiresAt = notice.expiresAt {
            timeToLive = min(timeToLive, max(0, Int(expiresAt.timeIntervalSince(notice.createdAt).rounded(.up))))
        }
    }

    /// `text` without `subject`, and without the separators left dangling where it stood.
    public static func withoutSubject(_ text: String, _ subject: String?) -> String {
        guard let subject, !subject.isEmpty, text.contains(subject) else { return text }
        let lines = text.components(separatedBy: "\n").map { line in
            line.replacingOccurrences(of: subject, with: "").trimmingCharacters(in: CharacterSet(charactersIn: " :,—-"))
        }
        return lines.joined(separator: "\n")
    }

    /// The longest title and text a push carries, in UTF-8 bytes (with the rest, well
    /// inside the 3,993 bytes a message holds); lock screens show less.
    static let titleLimit = 400, bodyLimit = 2000

    /// `text`, ending in "…" where it was cut to at most `limit` UTF-8 bytes.
    static func cut(_ text: String, toBytes limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        var kept = ""
        var bytes = 3  // the ellipsis
        for character in text {
            bytes += character.utf8.count
            guard bytes <= limit else { break }
            kept.append(character)
        }
        return kept + "…"
    }

    /// The push's `Topic` (RFC 8030 §5.4: at most 32 characters of base64url): the same
    /// for every notice about one thing (its deduplication key, up to a `#`: a key's
    /// `#fragment` names a later state of that thing, de-duplicated apart from it), so the
    /// push service keeps only the newest undelivered one and the phone shows only the newest.
    public static func topic(of notice: Notice) -> String {
        let key = notice.deduplicationKey.map { String($0.prefix { $0 != "#" }) } ?? notice.id.uuidString
        return String(Base64URL.encode(SHA256.hash(data: Array(key.utf8))).prefix(32))
    }

    /// How long the push service keeps the push for a phone that is off (`TTL`, seconds).
    public static func timeToLive(for severity: NotificationSeverity) -> Int {
        switch severity {
        case .alarm: 12 * 3600
        case .warning: 24 * 3600
        case .information, .silent: 3 * 24 * 3600
        }
    }

    /// How urgently the phone should wake (RFC 8030 §5.3 `Urgency`).
    public static func urgency(for severity: NotificationSeverity) -> String {
        switch severity {
        case .alarm: "high"
        case .warning: "normal"
        case .information, .silent: "low"
        }
    }

    /// The JSON the service worker reads.
    public func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(self)) ?? Data())
    }
}
