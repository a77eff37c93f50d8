import Foundation
import SADECore
import SADEHealth
import SADEHealthSQLite
@testable import SADEMonitoring
import SADETestTiming
import Testing

@Suite("Nothing accepted stays unevaluated", .timeLimit(.minutes(3)), .timed)
struct PipelineRestartTests {
    static func heartRates(_ values: [Double], at time: Date) -> [HealthSample] {
        values.enumerated().map { index, value in
            .quantity(.heartRate, value, patient: "patient-01", at: time.addingTimeInterval(Double(index)))
        }
    }

    static func sampleIDs(in events: [MonitoringEvent]) -> Set<UUID> {
        Set(events.flatMap { event -> [UUID] in
            if case .samples(let samples) = event { samples.observations.map(\.id) } else { [] }
        })
    }

    @Test("samples saved but not evaluated before a crash are evaluated, once, by the next pipeline on the same database")
    func restartEvaluatesWhatWasLeft() async throws {
        let directory = try temporaryDirectory()
        let first = try PipelineFixture.make(directory: directory)
        try await Ward.seed(first.store, patients: [Ward.patient("patient-01", in: "covid-ward")])
        var firstLog = first.events.subscribe(buffer: 10_000).makeAsyncIterator()
        try await first.start()
        let evaluated = Self.heartRates([70, 71], at: Ward.epoch)
        try await first.store.save(evaluated, as: .system)
        first.pipeline.wake()
        await first.pipeline.settle()
        #expect(Self.sampleIDs(in: await drain(&firstLog, hub: first.events)) == Set(evaluated.map(\.id)))

        // Accepted by the API, then the process dies before the collector runs.
        let left = Self.heartRates([72, 73, 74], at: Ward.epoch.addingTimeInterval(30))
        try await first.store.save(left, as: .system)
        for agent in [first.pipeline.collector.agent, first.pipeline.anomalies.agent, first.pipeline.alerts.agent] { await agent.stop() }
        await first.outbox.stop()

        let second = try PipelineFixture.make(directory: directory, epoch: Ward.epoch.addingTimeInterval(60))
        var secondLog = second.events.subscribe(buffer: 10_000).makeAsyncIterator()
        try await second.start()
        await second.pipeline.settle()
        let events = await drain(&secondLog, hub: second.events)
        #expect(Self.sampleIDs(in: events) == Set(left.map(\.id)), "the left samples, and not the evaluated ones again")
        #expect(events.contains { if case .news2(let score) = $0 { score.patient == "patient-01" } else { false } })
        await second.stop()
    }

    @Test("shutdown collects and evaluates what was accepted just before it")
    func shutdownEvaluatesTheLastSamples() async throws {
        let fixture = try PipelineFixture.make()
        try await Ward.seed(fixture.store, patients: [Ward.patient("patient-01", in: "covid-ward")])
        var log = fixture.events.subscribe(buffer: 10_000).makeAsyncIterator()
        try await fixture.start()
        let last = Self.heartRates([75, 76], at: Ward.epoch)
        try await fixture.store.save(last, as: .system)
        await fixture.stop()
        #expect(Self.sampleIDs(in: await drain(&log, hub: fixture.events)) == Set(last.map(\.id)))
        for agent in [fixture.pipeline.collector.agent, fixture.pipeline.anomalies.agent, fixture.pipeline.alerts.agent] {
            #expect(await agent.state == .stopped)
        }
    }

    @Test("samples from a pushing source are stored, then evaluated from the store; a bad one costs only itself")
    func pushingSourceSamplesAreStoredAndEvaluated() async throws {
        let queue = SampleQueue()
        let fixture = try PipelineFixture.make(sources: [queue])
        try await Ward.seed(fixture.store, patients: [Ward.patient("patient-01", in: "covid-ward")])
        var log = fixture.events.subscribe(buffer: 10_000).makeAsyncIterator()
        try await fixture.start()
        let good = Self.heartRates([80, 81], at: Ward.epoch)
        let bad = HealthSample.quantity(.heartRate, 999, patient: "patient-01", at: Ward.epoch)
        await queue.enqueue([good[0], bad, good[1]])
        await fixture.pipeline.settle()
        let stored = try await fixture.store.samples(SampleQuery(.quantity(.heartRate), patient: "patient-01"), as: .system)
        #expect(Set(stored.map(\.id)) == Set(good.map(\.id)))
        #expect(Self.sampleIDs(in: await drain(&log, hub: fixture.events)) == Set(good.map(\.id)))
        #expect(await queue.newSamples().isEmpty)
        await fixture.stop()
    }
}

@Suite("An episode stays one alert across a restart", .timeLimit(.minutes(3)), .timed)
struct AlertRestartTests {
    @Test("after a restart a patient still deteriorating joins the open alert instead of raising another")
    func restartKeepsOneAlertPerEpisode() async throws {
        let directory = try temporaryDirectory()
        let simulator = VitalSignSimulator(patient: "patient-01", profile: .deteriorating, seed: 1, start: Ward.epoch)
        let first = try PipelineFixture.make(directory: directory, simulators: [simulator])
        try await Ward.seed(first.store, patients: [Ward.patient("patient-01", in: "covid-ward")])
        try await first.start()
        let alert = try #require(try await first.tickUntilAlert(for: "patient-01"))
        await first.stop()

        let second = try PipelineFixture.make(directory: directory, epoch: Ward.epoch.addingTimeInterval(3600), simulators: [simulator])
        try await second.start()
        await second.tick(20)
        #expect(try await second.pipeline.book.alerts(patients: ["patient-01"]).map(\.id) == [alert.id])
        #expect(second.pipeline.book.openAlertCount(assignee: "cal") == 1, "the load is read back from the database")
        await second.stop()
    }
}
