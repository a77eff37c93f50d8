import Foundation
import Logging

/// Raises alerts and escalates them until a health-care worker acknowledges them:
/// each step of the ``EscalationPolicy`` is a notification through the outbox, due
/// at the step's delay from raising the alert on the outbox's clock; acknowledging the
/// alert — or any escalation notice of it — stops the remaining steps.
///
/// Alerts, policies and steps taken are in the outbox's database, so ``resume()``
/// picks up the escalations of a previous run.
public actor AlertDesk {
    /// The outbox the notices go through.
    public let outbox: NotificationOutbox
    private var escalations: [UUID: (token: UUID, task: Task<Void, Never>)] = [:]
    private let logger: Logger

    /// Creates a desk on `outbox`.
    public init(outbox: NotificationOutbox, logger: Logger = Logger(label: "sade.notifications.escalation")) {
        self.outbox = outbox
        self.logger = logger
    }

    /// Raises `alert`: the policy's immediate step goes out with it, later ones when
    /// due unless the alert is acknowledged first. Information and silent notices are
    /// just sent. Returns the alert as stored (an open duplicate, if there is one).
    @discardableResult
    public func raise(_ alert: Notice, policy: EscalationPolicy) async throws -> Notice {
        try await raiseAlert(alert, policy: policy).notice
    }

    /// ``raise(_:policy:)``, also telling the escalation steps taken with the alert
    /// when they are known without a read: a new alert's immediate step (or none).
    package func raiseAlert(_ alert: Notice, policy: EscalationPolicy) async throws -> RaisedAlert {
        guard alert.severity.needsAcknowledgement else {
            let sent = try await outbox.send(alert)
            return RaisedAlert(notice: sent, stepsTaken: sent.id == alert.id ? [] : nil)  // a duplicate may be escalating
        }
        var alert = alert
        if let first = policy.steps.first, first.after == .zero {  // the first step is the alert itself
            alert.recipients += first.recipients.filter { !alert.recipients.contains($0) }
        }
        let raised = try await outbox.sendAlert(alert, policy: policy)
        guard raised.notice.id == alert.id, escalations[alert.id] == nil else { return raised }
        schedule(alert, policy: policy, raisedAt: outbox.clock.now, taken: policy.steps.first?.after == .zero ? [0] : [])
        return raised
    }

    /// Schedules again the escalations of alerts still open in the outbox's database
    /// (after a restart): steps already taken are skipped, overdue ones go out at once.
    ///
    /// - Returns: how many alerts are escalating again.
    @discardableResult
    public func resume() async throws -> Int {
        var resumed = 0
        for stored in try await outbox.openEscalations()
        where escalations[stored.alert.id] == nil && stored.stepsTaken.count < stored.policy.steps.count {
            schedule(stored.alert, policy: stored.policy, raisedAt: stored.raisedAt, taken: stored.stepsTaken)
            resumed += 1
        }
        return resumed
    }

    private func schedule(_ alert: Notice, policy: EscalationPolicy, raisedAt: Date, taken: Set<Int>) {
        let token = UUID()
        escalations[alert.id] = (token, Task { [outbox, logger] in
            defer { self.finished(alert.id, token: token) }
            for (index, step) in policy.steps.enumerated() where !taken.contains(index) && !step.recipients.isEmpty {
                guard (try? await outbox.clock.sleep(until: raisedAt.addingTimeInterval(step.after.seconds))) != nil,
                    !Task.isCancelled
                else { return }  // acknowledged
                var notice = alert
                notice.id = UUID()
                notice.recipients = step.recipients
                notice.title = "Escalated: \(alert.title)"
                notice.deduplicationKey = nil
                notice.createdAt = outbox.clock.now
                do {
                    // Not sent: acknowledged (the end), or the step taken by another node
                    // sharing the outbox (go on to the next).
                    if try await !outbox.sendEscalation(notice, alertID: alert.id, step: index),
                        try await outbox.acknowledgement(of: alert.id) != nil
                    {
                        return
                    }
                } catch {
                    logger.error("escalation step could not be queued", metadata: ["alert": "\(alert.id)", "step": "\(index)", "error": "\(error)"])
                }
            }
        })
    }

    /// Forgets an escalation that ended, unless a newer one took its place.
    private func finished(_ alertID: UUID, token: UUID) {
        if escalations[alertID]?.token == token { escalations[alertID] = nil }
    }

    /// Acknowledges an alert for `worker` and stops its escalation; `id` may also be
    /// an escalation notice of the alert (what the doctor received).
    ///
    /// - Returns: `false` if the alert had been acknowledged already.
    @discardableResult
    public func acknowledge(_ id: UUID, by worker: String) async throws -> Bool {
        let alertID = try await outbox.alertID(ofNotice: id)
        let first = try await outbox.acknowledge(alertID, by: worker)
        if alertID != id { try await outbox.acknowledge(id, by: worker) }
        escalations.removeValue(forKey: alertID)?.task.cancel()
        return first
    }

    /// How many alerts are still escalating.
    public var escalatingCount: Int { escalations.count }

    /// Whether the alert `id` has steps still to come (not acknowledged, policy not done).
    public func isEscalating(_ id: UUID) -> Bool { escalations[id] != nil }
}
