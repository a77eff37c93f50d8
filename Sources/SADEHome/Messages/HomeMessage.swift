import Foundation
import SADENotification

/// A message the home raises for people (the thesis's Table 6.1): information that
/// expires by itself, a warning, an alarm that stays until a person confirms it, or a
/// silent message that is only logged. The class is the notification module's
/// ``NotificationSeverity``, so home messages reach carers through the same channels.
public struct HomeMessage: Hashable, Sendable, Codable, Identifiable {
    /// Unique in the store.
    public var id: Int64
    /// The flat it is about.
    public var flat: FlatID
    /// The device that caused it, if one did.
    public var device: DeviceID?
    /// Information, warning, alarm or silent.
    public var severity: NotificationSeverity
    /// What happened, in a few words ("Smoke in the kitchen").
    public var title: String
    /// More detail.
    public var text: String
    /// While a message with the same key is open, raising it again returns that one.
    public var key: String
    /// When it was raised.
    public var raisedAt: Date
    /// When it goes by itself (information, warnings); `nil` for alarms.
    public var expiresAt: Date?
    /// Open, confirmed, expired or logged.
    public var state: HomeMessageState
    /// Who confirmed it, and when.
    public var confirmedBy: String?
    /// When it was confirmed.
    public var confirmedAt: Date?
    /// The notification that took it to carers (acknowledged when the message is confirmed).
    public var notice: UUID?

    /// A message.
    public init(
        id: Int64, flat: FlatID, device: DeviceID?, severity: NotificationSeverity, title: String, text: String, key: String,
        raisedAt: Date, expiresAt: Date?, state: HomeMessageState, confirmedBy: String? = nil, confirmedAt: Date? = nil,
        notice: UUID? = nil
    ) {
        self.notice = notice
        self.id = id
        self.flat = flat
        self.device = device
        self.severity = severity
        self.title = title
        self.text = text
        self.key = key
        self.raisedAt = raisedAt
        self.expiresAt = expiresAt
        self.state = state
        self.confirmedBy = confirmedBy
        self.confirmedAt = confirmedAt
    }
}

/// Where a home message is in its life.
public enum HomeMessageState: String, Hashable, Sendable, Codable, CaseIterable {
    /// Shown to carers.
    case open
    /// A person confirmed it.
    case confirmed
    /// It went by itself (information and warnings only).
    case expired
    /// A silent message: recorded, never shown.
    case logged
}

/// A message to raise: what ``HomeStore/raise(_:at:)`` takes.
public struct HomeMessageDraft: Hashable, Sendable {
    /// The flat.
    public var flat: FlatID
    /// The device that caused it, if any.
    public var device: DeviceID?
    /// Its class.
    public var severity: NotificationSeverity
    /// A few words.
    public var title: String
    /// More detail.
    public var text: String
    /// One open message per key: e.g. `smoke:12` or `inactivity:window:07:00`.
    public var key: String
    /// How long information and warnings stay before they expire.
    public var lifetime: Duration?
    /// The id of the notification that will take it to carers.
    public var notice: UUID

    /// A draft; `lifetime` defaults to 15 minutes for information, 12 hours for warnings,
    /// none for alarms and silent messages.
    public init(
        flat: FlatID, device: DeviceID? = nil, severity: NotificationSeverity, title: String, text: String, key: String,
        lifetime: Duration? = nil, notice: UUID = UUID()
    ) {
        self.notice = notice
        self.flat = flat
        self.device = device
        self.severity = severity
        self.title = title
        self.text = text
        self.key = key
        switch severity {
        case .information: self.lifetime = lifetime ?? .seconds(15 * 60)
        case .warning: self.lifetime = lifetime ?? .seconds(12 * 3600)
        case .alarm, .silent: self.lifetime = nil
        }
    }
}
