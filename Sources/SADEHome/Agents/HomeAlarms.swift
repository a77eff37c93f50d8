import Foundation
import Logging
import SADENotification

/// How the home tells people: a message in the store (Table 6.1's classes) and, unless it
/// is silent, a notification to the flat's carers and the resident's relatives through the
/// notification module, escalating until a person confirms it.
public struct HomeAlarms: Sendable {
    /// Where messages are kept.
    public let store: any HomeStore
    /// The desk that notifies carers and escalates; `nil` keeps messages in the store only.
    public let desk: AlertDesk?
    /// Live subscribers of the flat's messages.
    public let events: HomeEventHub?
    /// The escalation for a flat's warnings and alarms, to the people told of them.
    public let policy: @Sendable ([Recipient]) -> EscalationPolicy
    /// The usernames of the flat's resident's relatives, told of its warnings and alarms as
    /// its carers are (H.O.M.E.R.'s carers are family).
    public let family: @Sendable (Flat) async throws -> [String]

    /// Alarms through `desk`, escalating with `policy` (by default: the carers and the
    /// `family` at once and again every 5 minutes, for an hour).
    public init(
        store: any HomeStore, desk: AlertDesk?, events: HomeEventHub? = nil,
        policy: @escaping @Sendable ([Recipient]) -> EscalationPolicy = HomeAlarms.remind,
        family: @escaping @Sendable (Flat) async throws -> [String] = { _ in [] }
    ) {
        self.store = store
        self.desk = desk
        self.events = events
        self.policy = policy
        self.family = family
    }

    /// `people` at once, then reminded every 5 minutes for an hour until one confirms.
    public static func remind(_ people: [Recipient]) -> EscalationPolicy {
        EscalationPolicy((0...12).map { EscalationPolicy.Step(after: .seconds($0 * 300), notify: people) })
    }

    /// Who is told of the flat's warnings and alarms: its carers, then the resident's
    /// relatives. The relatives cannot be read (the account store down): the carers alone,
    /// logged — an alarm never waits for the family.
    public func people(of flat: Flat) async -> [Recipient] {
        var usernames = flat.carers
        do {
            for relative in try await family(flat) where !usernames.contains(relative) { usernames.append(relative) }
        } catch {
            Logger(label: "sade.home").error("the resident's relatives are not told: unreadable", metadata: ["flat": "\(flat.id)", "error": "\(error)"])
        }
        return usernames.map(Recipient.user)
    }

    /// Raises `draft` at `date`; a message with the same key still open is not raised again.
    /// Subscribers hear of it once its notification is on its way, so a confirmation
    /// always finds the notification to stop.
    @discardableResult
    public func raise(_ draft: HomeMessageDraft, flat: Flat, at date: Date) async throws -> HomeMessage {
        var (message, isNew) = try await store.raise(draft, at: date)
        guard isNew else { return message }
        message = try await notify(message, flat: flat)
        events?.publish(.message(message))
        return message
    }

    /// Sends the notifications of the flat's open messages that have none in the outbox:
    /// the node that stored them died before it queued them (a flat's agent calls this as
    /// it starts, on the node taking over or after a restart). Returns how many it sent.
    @discardableResult
    public func notifyUnsent(in flat: Flat) async throws -> Int {
        guard let desk, await !people(of: flat).isEmpty else { return 0 }
        var sent = 0
        for message in try await store.messages(flat: flat.id, states: [.open], from: nil, to: nil) where message.severity != .silent {
            guard let notice = message.notice, try await desk.outbox.notification(notice) == nil else { continue }
            _ = try await notify(message, flat: flat)
            sent += 1
        }
        return sent
    }

    /// Queues the notification of `message` to the flat's carers and relatives (unless it
    /// is silent or nobody is to be told); the message as it stands then.
    private func notify(_ message: HomeMessage, flat: Flat) async throws -> HomeMessage {
        guard let desk, let notice = message.notice, message.severity != .silent else { return message }
        let people = await people(of: flat)
        guard !people.isEmpty else { return message }
        try await desk.raise(
            Notice(
                id: notice, recipients: people, severity: message.severity,
                title: "\(flat.name): \(message.title)", body: message.text, subject: "flat:\(flat.id)", createdAt: message.raisedAt,
                deduplicationKey: "home:\(flat.id):\(message.key)"),
            policy: policy(people))
        let now = try await store.message(message.id)
        if now.state == .confirmed, now.severity.needsAcknowledgement {  // confirmed while the notice was being queued
            try await desk.acknowledge(notice, by: now.confirmedBy ?? "home")
        }
        return now
    }

    /// A person confirms a message: it closes, and its notification (if it had one)
    /// stops escalating.
    public func confirm(_ id: Int64, by person: String, at date: Date) async throws -> HomeMessage {
        let message = try await store.confirm(message: id, by: person, at: date)
        if let desk, let notice = message.notice, message.severity.needsAcknowledgement, try await desk.outbox.notification(notice) != nil {
            try await desk.acknowledge(notice, by: person)
        }
        events?.publish(.message(message))
        return message
    }

    /// Where the notification of `message` stands: the steps sent, who acknowledged it,
    /// whether reminders are still to come; `nil` when it has none (silent, information,
    /// no carers, or no desk).
    public func escalation(of message: HomeMessage) async throws -> HomeEscalation? {
        guard let desk, let notice = message.notice, message.severity.needsAcknowledgement,
            try await desk.outbox.notification(notice) != nil
        else { return nil }
        let acknowledgement = try await desk.outbox.acknowledgement(of: notice)
        return HomeEscalation(
            steps: try await desk.outbox.escalations(of: notice), acknowledgedBy: acknowledgement?.worker,
            acknowledgedAt: acknowledgement?.at, isEscalating: await desk.isEscalating(notice))
    }
}

/// The carers' notification of a home message and its reminders.
public struct HomeEscalation: Sendable {
    /// The notifications sent so far, in order: step 0 is the first, then the reminders.
    public var steps: [EscalationRecord]
    /// Who acknowledged it (confirming the message does), if anyone.
    public var acknowledgedBy: String?
    /// When.
    public var acknowledgedAt: Date?
    /// Whether reminders are still to come.
    public var isEscalating: Bool
}
