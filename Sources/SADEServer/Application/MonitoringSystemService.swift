import ServiceLifecycle
import SADEMonitoring

/// Runs a ``MonitoringSystem`` as a service of a `ServiceGroup`: starts it, waits for
/// the graceful shutdown signal, then shuts it down (the agents first, then the
/// outbox), so nothing accepted is lost. Put it before the HTTP application in the
/// group, so that the server stops taking requests before the system stops.
public struct MonitoringSystemService: Service {
    /// The system run.
    public let system: MonitoringSystem

    /// A service for `system`.
    public init(system: MonitoringSystem) { self.system = system }

    public func run() async throws {
        try await system.start()
        try? await gracefulShutdown()
        await system.shutdown()
    }
}
