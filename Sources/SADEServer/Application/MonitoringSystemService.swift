import ServiceLifecycle
import SADEMonitoring

/// Keeps a started ``MonitoringSystem`` in a `ServiceGroup`: waits for the graceful
/// shutdown signal, then shuts it down (the agents first, then the outbox), so nothing
/// accepted is lost. Start the system before running the group, so that no request
/// reaches agents that have not started; put this service before the HTTP application,
/// so that the server stops taking requests before the system stops.
public struct MonitoringSystemService: Service {
    /// The system run.
    public let system: MonitoringSystem

    /// A service for `system`.
    public init(system: MonitoringSystem) { self.system = system }

    public func run() async throws {
        try? await gracefulShutdown()
        await system.shutdown()
    }
}
