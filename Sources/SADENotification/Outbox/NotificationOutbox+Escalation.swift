import Foundation

extension NotificationOutbox {
    /// Stores an alert with its escalation policy in one transaction: the notice and
    /// its deliveries, the policy, and — when the policy's first step is immediate —
    /// step 0. Returns the open duplicate instead, if there is one.
    func sendAlert(_ alert: Notice, policy: EscalationPolicy) async throws -> RaisedAlert {
        let now = clock.now
        let takesFirstStep = policy.steps.first?.after == .zero
        let insertion = try await store.insertAlert(alert, channels: channels(for: alert), policy: policy, takesFirstStep: takesFirstStep, at: now)
        guard insertion.inserted else { return RaisedAlert(notice: insertion.notice, stepsTaken: nil) }
        wake()
        // The step as the store keeps it: its time in seconds since 1970.
        let first = EscalationRecord(
            alertID: alert.id, step: 0, at: Date(timeIntervalSince1970: now.timeIntervalSince1970), notificationID: alert.id,
            recipients: alert.recipients)
        return RaisedAlert(notice: insertion.notice, stepsTaken: takesFirstStep ? [first] : [])
    }

    /// Sends an escalation notice for step `step` of `alertID` in one transaction, only
    /// if the alert is still unacknowledged and the step was not taken yet (on any node).
    ///
    /// - Returns: whether it was sent.
    func sendEscalation(_ notice: Notice, alertID: UUID, step: Int) async throws -> Bool {
        let sent = try await store.insertEscalation(notice, channels: channels(for: notice), alertID: alertID, step: step, at: clock.now)
        if sent { wake() }
        return sent
    }

    /// The alert an escalation notice was sent for, or `id` itself when it is none.
    func alertID(ofNotice id: UUID) async throws -> UUID {
        try await store.alertID(ofNotice: id)
    }

    /// Unacknowledged alerts with a policy, for resuming their escalation.
    func openEscalations() async throws -> [StoredEscalation] {
        try await store.openEscalations()
    }
}
