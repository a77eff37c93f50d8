import Foundation
import Metrics
import MetricsTestKit
import SADECore
import SADEHealth
@testable import SADEMonitoring
import SADETestTiming
import Testing

@Suite("The pipeline's metrics: lag to evaluation, alerts open", .timeLimit(.minutes(3)), .timed)
struct PipelineMetricsTests {
    @Test("the lag runs on the platform clock from the samples' acceptance to their batch's evaluation")
    func lagToEvaluation() async throws {
        let metrics = TestMetrics()
        let fixture = try withMetricsFactory(metrics) { try PipelineFixture.make() }
        try await Ward.seed(fixture.store, patients: [Ward.patient("patient-01", in: "covid-ward")])
        try await fixture.start()
        let anomalies = fixture.pipeline.anomalies.agent
        try await anomalies.suspend()

        try await fixture.store.save(.quantity(.heartRate, 72, patient: "patient-01", at: Ward.epoch), as: .system)
        fixture.pipeline.wake()
        await fixture.pipeline.collector.collect()  // the batch waits in the suspended AnomaliesAgent's mailbox
        fixture.clock.advance(by: .seconds(3))
        try await anomalies.resume()
        await fixture.pipeline.collector.waitUntilConfirmed()
        #expect(try metrics.expectTimer("sade_pipeline_lag_seconds").values == [3_000_000_000])

        // A collection with nothing new measures nothing.
        fixture.pipeline.wake()
        await fixture.pipeline.settle()
        #expect(try metrics.expectTimer("sade_pipeline_lag_seconds").values.count == 1)
        await fixture.stop()
    }

    @Test("alerts open counts every unacknowledged alert in the book")
    func alertsOpen() async throws {
        let metrics = TestMetrics()
        let fixture = try withMetricsFactory(metrics) { try PipelineFixture.make() }
        try await fixture.start()
        try await fixture.pipeline.recordOpenAlerts()
        #expect(try metrics.expectGauge("sade_alerts_open").lastValue == 0)
        try await PipelineAlertTests.load("cal", with: 2, in: fixture)
        try await fixture.pipeline.recordOpenAlerts()
        #expect(try metrics.expectGauge("sade_alerts_open").lastValue == 2)
        await fixture.stop()
    }
}
