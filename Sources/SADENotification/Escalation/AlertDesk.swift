import Foundation

/// Raises alerts and escalates them until a health-care worker acknowledges them:
/// each step of the ``EscalationPolicy`` is a notification through the outbox, taken
/// on the outbox's clock; acknowledging stops the remaining steps.
public actor AlertDesk {
    /// The outbox the notices go through.
    public let outbox: NotificationOutbox
    private var escalations: [UUID: Task<Void, Never>] = [:]

    /// Creates a desk on `outbox`.
    public init(outbox: NotificationOutbox) {
        self.outbox = outbox
    }

    /// Raises `alert`: the steps due at once go out now, later ones when due unless
    /// the alert is acknowledged first. Information and silent notifications are just
    /// sent. Returns the alert as stored (an open duplicate, if there is one).
    @discardableResult
    public func raise(_ alert: Notice, policy: EscalationPolicy) async throws -> Notice {
        guard alert.severity.needsAcknowledgement else { return try await outbox.send(alert) }
        var alert = alert
        if let first = policy.steps.first, first.after == .zero {  // the first step is the alert itself
            alert.recipients += first.recipients.filter { !alert.recipients.contains($0) }
        }
        let stored = try await outbox.send(alert)
        guard stored.id == alert.id else { return stored }  // a duplicate of an open alert
        try await outbox.recordEscalation(alertID: alert.id, step: 0, notification: alert)
        let start = outbox.clock.now
        escalations[alert.id] = Task { [outbox, alert] in
            for (index, step) in policy.steps.enumerated() where !step.recipients.isEmpty {
                if index == 0 && step.after == .zero { continue }  // went out with the alert
                do {
                    try await outbox.clock.sleep(until: start.addingTimeInterval(step.after.seconds))
                } catch {
                    return  // acknowledged: the task was cancelled
                }
                guard (try? await outbox.acknowledgement(of: alert.id)) == nil else { return }
                var notice = alert
                notice.id = UUID()
                notice.recipients = step.recipients
                notice.title = "Escalated: \(alert.title)"
                notice.deduplicationKey = nil
                notice.createdAt = outbox.clock.now
                try? await outbox.recordEscalation(alertID: alert.id, step: index, notification: notice)
                _ = try? await outbox.send(notice)
            }
        }
        return stored
    }

    /// Acknowledges an alert for `worker` and stops its escalation.
    ///
    /// - Returns: `false` if it had been acknowledged already.
    @discardableResult
    public func acknowledge(_ alertID: UUID, by worker: String) async throws -> Bool {
        let first = try await outbox.acknowledge(alertID, by: worker)
        escalations.removeValue(forKey: alertID)?.cancel()
        return first
    }

    /// How many alerts are still escalating.
    public var escalatingCount: Int {
        escalations = escalations.filter { !$0.value.isCancelled }
        return escalations.count
    }
}
