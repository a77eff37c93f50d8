extension MonitoringSystem {
    /// Brings up to date the gauges an operator reads at a moment rather than as things
    /// happen (the server does, before it answers `GET /metrics`): the messages waiting
    /// in the platform's mailboxes, the alerts open (`sade_alerts_open`, every node's, as
    /// the database has them) and the outbox's pending deliveries. A gauge whose database
    /// does not answer keeps its last value.
    ///
    /// What is counted as it happens goes to the swift-metrics factory bound when the
    /// system was created (the process's, bootstrapped once by `sade serve`): agents
    /// alive, messages delivered and failed (``Environment``), outbox deliveries, retries
    /// and dead letters (``NotificationOutbox``), and the pipeline's lag from a sample's
    /// acceptance to its evaluation (`sade_pipeline_lag_seconds`).
    public func recordMetrics() async {
        platform.recordMailboxDepth()
        do {
            try await pipeline.recordOpenAlerts()
        } catch {
            logger.warning("metrics: the alert book did not answer", metadata: ["error": "\(error)"])
        }
        do {
            try await outbox.recordPendingCount()
        } catch {
            logger.warning("metrics: the outbox did not answer", metadata: ["error": "\(error)"])
        }
    }
}
