import Hummingbird
import Prometheus

/// The server's Prometheus metrics, in a registry of its own (several servers can
/// live in one process, e.g. in tests), served at `GET /metrics`.
public final class ServerMetrics: Sendable {
    /// Every metric of this server.
    public let registry = PrometheusCollectorRegistry()
    /// Samples accepted through the API.
    let samplesAccepted: Counter

    /// A fresh registry.
    public init() {
        samplesAccepted = registry.makeCounter(
            descriptor: MetricNameDescriptor(namespace: "sade", metricName: "samples_accepted", unitName: "total", helpText: "Samples accepted through the API."))
    }

    /// Counts a request by method and status class and times it.
    func record(method: String, status: Int, duration: Duration) {
        let labels = [("method", method), ("status", "\(status / 100)xx")]
        registry.makeCounter(
            descriptor: MetricNameDescriptor(namespace: "sade", metricName: "http_requests", unitName: "total", helpText: "HTTP requests answered."),
            labels: labels
        ).increment()
        registry.makeDurationHistogram(
            descriptor: MetricNameDescriptor(namespace: "sade", metricName: "http_request_duration", unitName: "seconds", helpText: "Time to answer HTTP requests."),
            labels: [("method", method)],
            buckets: [.milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(50), .milliseconds(100), .milliseconds(500), .seconds(1), .seconds(5)]
        ).record(duration)
    }
}

/// Counts and times every request into ``ServerMetrics``.
struct MetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            metrics.record(method: request.method.rawValue, status: response.status.code, duration: ContinuousClock.now - start)
            return response
        } catch let error as HTTPResponseError {
            metrics.record(method: request.method.rawValue, status: error.status.code, duration: ContinuousClock.now - start)
            throw error
        }
    }
}

extension MonitoringServer {
    /// `GET /metrics`: Prometheus text exposition format.
    func addMetricsRoutes(to router: Router<MonitoringRequestContext>) {
        router.get("metrics") { _, _ -> Response in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.registry.emitToBuffer())))
        }
    }
}
