import Metrics

/// What an operator of an agent platform watches, as swift-metrics: agents alive,
/// messages delivered and failed, and the messages waiting in mailboxes.
///
/// Every metric carries the platform's name as the `platform` dimension and goes to
/// the metrics factory the platform was created with (the process's, bootstrapped once
/// by `sade serve`, unless another is bound to the task). Agents alive and the message
/// counters change as things happen; the mailbox gauges change when
/// ``Environment/recordMailboxDepth()`` is called (by the server, before it answers
/// `GET /metrics`), so delivering a message costs one counter increment and no more.
final class PlatformMetrics: Sendable {
    let factory: any MetricsFactory
    let platform: String
    /// `sade_agents_alive`: agents in the white pages.
    let agentsAlive: Meter
    /// `sade_messages_delivered_total`: messages put in a mailbox here or handed to a transport.
    let delivered: Counter
    /// `sade_mailbox_messages`: messages waiting in every mailbox (with the batches being
    /// handled), when last recorded.
    let waiting: Gauge
    /// `sade_mailbox_deepest`: the most messages waiting in one mailbox, when last recorded.
    let deepest: Gauge

    init(platform: String, factory: any MetricsFactory) {
        self.factory = factory
        self.platform = platform
        let dimensions = [("platform", platform)]
        agentsAlive = Meter(label: "sade_agents_alive", dimensions: dimensions, factory: factory)
        delivered = Counter(label: "sade_messages_delivered_total", dimensions: dimensions, factory: factory)
        waiting = Gauge(label: "sade_mailbox_messages", dimensions: dimensions, factory: factory)
        deepest = Gauge(label: "sade_mailbox_deepest", dimensions: dimensions, factory: factory)
        failed = Dictionary(uniqueKeysWithValues: DeliveryFailure.codes.map { code in
            (code, Counter(label: "sade_messages_failed_total", dimensions: [("platform", platform), ("reason", code)], factory: factory))
        })
    }

    /// `sade_messages_failed_total{reason=…}`, per ``DeliveryFailure/code``.
    let failed: [String: Counter]

    /// Counts a message that could not be delivered, by the failure's code.
    func countFailure(_ failure: DeliveryFailure) {
        failed[failure.code]?.increment()
    }
}

extension Environment {
    /// Records how many messages wait in the agents' mailboxes (all of them, and the
    /// deepest) into the platform's `sade_mailbox_messages` and `sade_mailbox_deepest`
    /// gauges. Takes each agent's lock briefly, one after the other.
    public func recordMailboxDepth() {
        var total = 0
        var deepest = 0
        for agent in registry.withLock({ Array($0.values) }) {
            let depth = agent.mailboxDepth
            total += depth
            deepest = max(deepest, depth)
        }
        metrics.waiting.record(total)
        metrics.deepest.record(deepest)
    }
}
