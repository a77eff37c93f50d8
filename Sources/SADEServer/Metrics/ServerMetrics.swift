import Hummingbird
import Metrics
import Prometheus
import Synchronization

/// Where the server's `GET /metrics` reads: the Prometheus registry behind swift-metrics.
///
/// Everything in SADE measures through swift-metrics — Hummingbird's `MetricsMiddleware`
/// (requests by route, method and status, their durations), the platform (agents
/// alive, messages delivered and failed, mailbox depth), the pipeline (samples accepted,
/// lag to evaluation, alerts open) and the outbox (deliveries, retries, dead letters,
/// pending). `sade serve` bootstraps swift-metrics once with a Prometheus factory
/// (``bootstrap()``); tests bind a factory of their own to the task instead
/// (`withMetricsFactory`), so that several servers in one process keep apart.
public struct ServerMetrics: Sendable {
    /// Every metric the server shows.
    public let registry: PrometheusCollectorRegistry

    /// The registry of `factory` when it is Prometheus's (the task's, or the process's
    /// once bootstrapped); otherwise an empty one, which nothing measured reaches.
    public init(factory: any MetricsFactory = MetricsSystem.factory) {
        registry = (factory as? PrometheusMetricsFactory)?.registry ?? PrometheusCollectorRegistry()
    }

    /// Makes a Prometheus registry swift-metrics' backend for the whole process and
    /// returns it; call before anything measures (`sade serve` does). Calling it again
    /// returns the same registry (swift-metrics itself allows one bootstrap only).
    @discardableResult
    public static func bootstrap() -> PrometheusCollectorRegistry {
        bootstrapped.withLock { registry in
            if let registry { return registry }
            let factory = Self.factory(PrometheusCollectorRegistry())
            MetricsSystem.bootstrap(factory)
            registry = factory.registry
            return factory.registry
        }
    }

    private static let bootstrapped = Mutex<PrometheusCollectorRegistry?>(nil)

    /// A Prometheus factory on `registry` with the buckets SADE's timers want: HTTP
    /// requests and the pipeline's lag from a millisecond to a minute.
    public static func factory(_ registry: PrometheusCollectorRegistry) -> PrometheusMetricsFactory {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
            .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(5), .seconds(15), .seconds(60),
        ]
        return factory
    }
}

extension MonitoringServer {
    /// `GET /metrics`: Prometheus text exposition format, the gauges read at the moment
    /// brought up to date first (``MonitoringSystem/recordMetrics()``).
    func addMetricsRoutes(to router: Router<MonitoringRequestContext>) {
        router.get("metrics") { _, _ -> Response in
            await system.recordMetrics()
            issueTrack?.platform.recordMailboxDepth()
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.registry.emitToBuffer())))
        }
    }
}
