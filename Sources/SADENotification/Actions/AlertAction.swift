import SADECore

/// The action an alerting agent uses (the AlertAgent of the monitoring scenario):
/// builds a notification from what the agent knows and raises it through the desk
/// (or sends it through the outbox when no escalation is wanted).
public enum AlertAction {
    /// A one-shot action that raises the notification `make` returns, escalating
    /// with `policy`; when `make` returns `nil` nothing is sent.
    public static func raise(
        _ name: String = "alert", desk: AlertDesk, policy: EscalationPolicy,
        _ make: @escaping @Sendable (ActionContext) async throws -> Notice?
    ) -> OneShotAction {
        OneShotAction(name) { context in
            guard let notification = try await make(context) else { return }
            try await desk.raise(notification, policy: policy)
        }
    }

    /// A one-shot action that sends the notification `make` returns through the outbox.
    public static func send(
        _ name: String = "notify", outbox: NotificationOutbox, _ make: @escaping @Sendable (ActionContext) async throws -> Notice?
    ) -> OneShotAction {
        OneShotAction(name) { context in
            guard let notification = try await make(context) else { return }
            try await outbox.send(notification)
        }
    }
}
