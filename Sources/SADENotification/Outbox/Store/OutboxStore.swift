import Foundation

/// Where the outbox keeps its notices, deliveries, attempts and escalation steps: the
/// storage hot spots behind ``NotificationOutbox``, with one implementation on SQLite
/// (``SQLiteOutboxStore``, one process) and one on PostgreSQL (``PostgresOutboxStore``,
/// shared by several nodes). Both pass the same conformance suite.
///
/// Every method is one transaction. Dates are the outbox clock's, passed in.
package protocol OutboxStore: Sendable {
    /// Whether other processes dispatch from the same store: the dispatcher then looks
    /// for work they left (a node died with deliveries claimed) every so often.
    var isShared: Bool { get }
    /// The push subscriptions kept in the same database.
    var pushSubscriptions: any PushSubscriptionRecords { get }

    /// Stores `notice` with one pending delivery per channel in `channels`; or, without
    /// storing anything, returns the notice already stored under its id or the open
    /// duplicate with its deduplication key that stands for it.
    func insert(_ notice: Notice, channels: [String], at now: Date) async throws -> OutboxInsertion

    /// Stores an alert as ``insert(_:channels:at:)`` does, with its escalation policy and,
    /// when `takesFirstStep`, step 0 taken — all or nothing. Step 0 is read back as
    /// `EscalationRecord(alertID: alert.id, step: 0, at: now, notificationID: alert.id,
    /// recipients: alert.recipients)`, `now` as seconds since 1970 in a `Double`:
    /// ``NotificationOutbox`` tells it without reading it back.
    func insertAlert(_ alert: Notice, channels: [String], policy: EscalationPolicy, takesFirstStep: Bool, at now: Date) async throws
        -> OutboxInsertion

    /// Stores the notice of step `step` of `alertID` only if the alert is unacknowledged
    /// and the step not taken yet (by any node): whether it was stored.
    func insertEscalation(_ notice: Notice, channels: [String], alertID: UUID, step: Int, at now: Date) async throws -> Bool

    /// Every notice about `subject` (``Notice/subject``: a patient's id), oldest first:
    /// what the outbox holds about a person.
    func notices(about subject: String) async throws -> [Notice]

    /// Removes every notice about `subject` with its deliveries, attempts, escalation
    /// steps and policy (a person's erasure); returns how many notices there were.
    func erase(about subject: String) async throws -> Int

    /// The alert an escalation notice was sent for, or `id` itself when it is none.
    func alertID(ofNotice id: UUID) async throws -> UUID

    /// Unacknowledged alerts with a policy, oldest first, for resuming their escalation.
    func openEscalations() async throws -> [StoredEscalation]

    /// The pending deliveries on `channels` due at `now` that no other dispatcher holds,
    /// now held by this one until `now + hold` (a dispatcher that dies lets them go
    /// then), and when the next pending delivery on them falls due. Deliveries on other
    /// channels are left to the dispatchers that have them (another outbox sharing the
    /// database, e.g. the issue track's, which sends e-mail only) — in a store shared by
    /// several outboxes; one outbox's own store may hand out every channel's.
    func claimDue(at now: Date, hold: Duration, limit: Int, channels: [String]) async throws -> DueDeliveries

    /// Lets go of a claimed delivery that was not attempted (the dispatcher stopped).
    func release(_ key: DeliveryKey) async throws

    /// Records an attempt and what follows from it: delivered; dead after a permanent
    /// refusal or `maxAttempts`; else pending again at `retryAt(attempts)`. Releases the hold.
    func recordAttempt(_ attempt: AttemptOutcome, maxAttempts: Int, retryAt: @escaping @Sendable (Int) -> Date) async throws -> OutboxEvent

    /// The notice with this id.
    func notification(_ id: UUID) async throws -> Notice?
    /// Where the notice stands on each channel, by channel name.
    func deliveries(of id: UUID) async throws -> [DeliveryStatus]
    /// Every attempt for the notice, oldest first.
    func attempts(of id: UUID) async throws -> [DeliveryAttempt]
    /// Deliveries given up on, newest first.
    func deadLetters() async throws -> [DeliveryStatus]
    /// How many deliveries wait for an attempt.
    func pendingCount() async throws -> Int

    /// Records the first acknowledgement of a notice: `false` if it had one already.
    ///
    /// - Throws: ``NotificationError/unknownNotification(_:)``.
    func acknowledge(_ id: UUID, by worker: String, at now: Date) async throws -> Bool
    /// Who acknowledged the notice and when.
    func acknowledgement(of id: UUID) async throws -> (worker: String, at: Date)?
    /// Warnings and alarms not acknowledged, escalation notices left out, oldest first.
    func openAlerts() async throws -> [Notice]
    /// The escalation steps taken for each of several alerts, by step, in one read;
    /// an alert without any is absent.
    func escalations(of alertIDs: [UUID]) async throws -> [UUID: [EscalationRecord]]
}

/// What storing a notice came to.
package struct OutboxInsertion: Sendable {
    /// The notice stored: the new one, or the one that stands for it.
    package let notice: Notice
    /// Whether `notice` is new (its deliveries are pending).
    package let inserted: Bool
}

/// One delivery: a notice on a channel.
package struct DeliveryKey: Hashable, Sendable {
    package let notificationID: String
    package let channel: String

    package init(notificationID: String, channel: String) {
        self.notificationID = notificationID
        self.channel = channel
    }
}

/// The deliveries a dispatcher claimed, and when the next pending one falls due.
package struct DueDeliveries: Sendable {
    package var due: [(key: DeliveryKey, notice: Notice)]
    package var nextDue: Date?
}

/// An attempt, as the dispatcher reports it to the store.
package struct AttemptOutcome: Sendable {
    package let key: DeliveryKey
    package let notice: UUID
    package let at: Date
    /// Why it failed; `nil` when the channel took the notice.
    package let error: String?
    /// The channel refused for good.
    package let permanent: Bool
}

/// An alert being escalated, as stored: what is needed to resume it after a restart or
/// on another node.
package struct StoredEscalation: Sendable {
    package let alert: Notice
    package let policy: EscalationPolicy
    package let raisedAt: Date
    package let stepsTaken: Set<Int>
}

/// The notice and policy encodings both stores keep: dates as the number a `Date`
/// holds, so a notice reads back exactly as sent.
enum OutboxCoding {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    static let decoder = JSONDecoder()

    static func text(_ value: some Encodable) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func notice(_ text: String) throws -> Notice {
        try decoder.decode(Notice.self, from: Data(text.utf8))
    }

    static func policy(_ text: String) throws -> EscalationPolicy {
        try decoder.decode(EscalationPolicy.self, from: Data(text.utf8))
    }

    static func recipients(_ text: String) -> [Recipient] {
        (try? decoder.decode([Recipient].self, from: Data(text.utf8))) ?? []
    }

    /// The id of a stored row; a value that is not one (a row written by hand, a damaged
    /// file) is ``NotificationError/corruptRow(table:column:value:)``, not a crash.
    static func notificationID(_ text: String?, in table: String) throws -> UUID {
        guard let text, let id = UUID(uuidString: text) else {
            throw NotificationError.corruptRow(table: table, column: "notificationID", value: String((text ?? "NULL").prefix(64)))
        }
        return id
    }
}
