import Metrics
import MetricsTestKit
@testable import SADENotification
import SADETestSupport
import SADETestTiming
import Testing

@Suite("The outbox's metrics: deliveries, retries, dead letters, pending", .timeLimit(.minutes(3)), .timed)
struct OutboxMetricsTests {
    @Test("a failed attempt counts as a retry, then as delivered; pending follows the deliveries waiting")
    func retriesThenDelivered() async throws {
        let metrics = TestMetrics()
        let (clock, time) = manualTime()
        let channel = SwitchableChannel(name: "app")
        let configuration = NotificationOutbox.Configuration(maxAttempts: 2, initialBackoff: .seconds(10), maximumBackoff: .seconds(60), jitter: 0)
        let outbox = try withMetricsFactory(metrics) {
            try NotificationOutbox(directory: nil, channels: [channel], configuration: configuration, clock: time)
        }
        var events = await outbox.events().makeAsyncIterator()
        await outbox.start()
        try await outbox.send(Notice(recipients: [.user("nurse1")], severity: .alarm, title: "Bed 4", body: "NEWS2 7"))
        _ = await next(&events) { if case .failed = $0 { true } else { false } }
        #expect(try metrics.expectCounter("sade_outbox_retries_total", [("channel", "app")]).totalValue == 1)
        try await outbox.recordPendingCount()
        #expect(try metrics.expectGauge("sade_outbox_pending").lastValue == 1)

        channel.setFailing(false)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(10))
        _ = await next(&events) { if case .delivered = $0 { true } else { false } }
        #expect(try metrics.expectCounter("sade_outbox_delivered_total", [("channel", "app")]).totalValue == 1)
        try await outbox.recordPendingCount()
        #expect(try metrics.expectGauge("sade_outbox_pending").lastValue == 0)

        channel.setFailing(true)
        try await outbox.send(Notice(recipients: [.user("nurse1")], severity: .alarm, title: "Bed 5", body: "NEWS2 8"))
        _ = await next(&events) { if case .failed = $0 { true } else { false } }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(10))
        _ = await next(&events) { if case .dead = $0 { true } else { false } }
        #expect(try metrics.expectCounter("sade_outbox_dead_letters_total", [("channel", "app")]).totalValue == 1)
        #expect(try metrics.expectCounter("sade_outbox_retries_total", [("channel", "app")]).totalValue == 2)
        await outbox.stop()
    }
}
