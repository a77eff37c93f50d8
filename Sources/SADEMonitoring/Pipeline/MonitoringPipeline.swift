import Foundation
import GRDB
import Metrics
import SADECore
import SADEHealth
import SADENotification

/// The remote-monitoring agents of SADE4Health §5.3 on one platform: the
/// ``CollectorAgent``, the ``AnomaliesAgent``, the ``AlertAgent`` and one
/// ``CareWorkerAgent`` per health-care worker, with the ``AlertBook`` the API reads.
///
/// ```swift
/// let pipeline = MonitoringPipeline(
///     environment: platform, store: store, database: monitoringDatabase, outbox: outbox, desk: desk, events: hub,
///     configuration: .init(epoch: startDate), sources: [simulatedMonitors])
/// try await pipeline.start()
/// // the API saves accepted samples to `store`, then:
/// pipeline.wake()
/// // at exit:
/// await pipeline.shutdown()
/// ```
public final class MonitoringPipeline: Sendable {
    /// The platform the agents live on.
    public let environment: Environment
    /// The alerts raised, for the API.
    public let book: AlertBook
    /// Live events: samples, NEWS2, alerts.
    public let events: MonitoringEventHub
    /// How the pipeline runs.
    public let configuration: Configuration
    /// The collector.
    public let collector: CollectorAgent
    /// The anomaly evaluation.
    public let anomalies: AnomaliesAgent
    /// The alerting.
    public let alerts: AlertAgent
    let roster: StaffRoster
    let anomaliesInFlight = InFlightCounter()
    /// The patients this node evaluates: every one on a node of its own; with several,
    /// those of the shards it holds leases on.
    package let gate: EvaluationGate
    /// Open while this node runs the pushing sources: always on a node of its own; with
    /// several, while it holds the singletons' lease.
    package let sourcesGate: LeaseGate
    /// `sade_alerts_open` (see ``recordOpenAlerts()``).
    let alertsOpen: Gauge

    /// Creates the pipeline (nothing runs until ``start()``).
    ///
    /// - Parameters:
    ///   - environment: the platform; its clock drives collection and detection time.
    ///   - store: the health store and clinical registry (e.g. `SQLiteHealthStore`).
    ///   - database: the monitoring database, migrated with ``PipelineMigrations``.
    ///   - outbox: the (started) notification outbox.
    ///   - desk: raises and escalates alerts through `outbox`.
    ///   - events: where live events go.
    ///   - sources: pushing sources the collector pulls and stores (simulated monitors, queues).
    public convenience init(
        environment: Environment, store: any HealthStore & ClinicalRegistry, database: MonitoringDatabase, outbox: NotificationOutbox, desk: AlertDesk,
        events: MonitoringEventHub, configuration: Configuration, sources: [any NewDataSource] = []
    ) {
        self.init(
            environment: environment, store: store, records: SQLitePipelineRecords(database), outbox: outbox, desk: desk, events: events,
            configuration: configuration, sources: sources)
    }

    /// Creates the pipeline on `records` (the monitoring database, or PostgreSQL shared
    /// by several nodes).
    package init(
        environment: Environment, store: any HealthStore & ClinicalRegistry, records: any PipelineRecords, outbox: NotificationOutbox,
        desk: AlertDesk, events: MonitoringEventHub, configuration: Configuration, sources: [any NewDataSource] = [],
        gate: EvaluationGate = EvaluationGate(), sourcesGate: LeaseGate = LeaseGate()
    ) {
        self.gate = gate
        self.sourcesGate = sourcesGate
        alertsOpen = Gauge(label: "sade_alerts_open")
        self.environment = environment
        self.events = events
        self.configuration = configuration
        let anchors = records
        let book = AlertBook(records: records, outbox: outbox, desk: desk, events: events)
        self.book = book
        alerts = AlertAgent(
            environment: environment, registry: store, book: book, rules: configuration.alertRules,
            escalationCheckInterval: configuration.escalationCheckInterval, anomaliesInFlight: anomaliesInFlight, gate: gate)
        anomalies = AnomaliesAgent(
            environment: environment, registry: store, anchors: anchors, events: events,
            detector: AnomalyDetector(configuration: configuration.detector), news2Window: configuration.detector.news2Window, epoch: configuration.epoch,
            missingDataInterval: configuration.missingDataInterval, alertAgent: alerts.agent.identifier,
            anomaliesInFlight: anomaliesInFlight, gate: gate)
        collector = CollectorAgent(
            environment: environment, store: store, anchors: anchors, sources: sources, types: configuration.collectedTypes,
            batchLimit: configuration.batchLimit, period: configuration.collectionInterval, anomaliesAgent: anomalies.agent.identifier,
            gate: gate, sourcesGate: sourcesGate)
        roster = StaffRoster(registry: store, environment: environment, book: book)
    }

    /// Starts the agents (alerting first, so nothing is told to an agent not yet
    /// there), one care-worker agent per worker, resumes the escalation of alerts left
    /// open by a previous run, and collects at once: what was accepted but not evaluated
    /// before a restart is evaluated now.
    public func start() async throws {
        try await book.refreshLoads()
        try await alerts.agent.start()
        try await anomalies.agent.start()
        try await collector.agent.start()
        try await refreshStaff()
        try await book.desk.resume()
        if gate.isOpen { await alerts.adoptUnrecordedAlerts() }  // else at takeover
        collector.wake()
    }

    /// This node takes some patients' evaluation over (from a node that died, stopped or
    /// gave them up): the alerts raised about them without being recorded are recorded,
    /// then what was left unevaluated is collected; the care-worker agents are brought up
    /// to date.
    package func tookOver() async {
        await alerts.adoptUnrecordedAlerts()  // before any anomaly received from now on
        collector.wake()
        // Staff changes announced while this node was not listening are not missed.
        Task { [roster] in try? await roster.refresh() }
    }

    /// Whether any of `shards`' patients is being evaluated now: a batch of theirs not
    /// confirmed, or any anomaly on its way to the alert agent.
    package func isEvaluating(_ shards: PatientShards) async -> Bool {
        await collector.collector.hasInFlight(shards) || !anomaliesInFlight.isZero
    }

    /// Records how many alerts are open (every node's, as the database has them) into
    /// `sade_alerts_open`.
    public func recordOpenAlerts() async throws(AlertBookError) {
        alertsOpen.record(try await book.openAlertCounts().values.reduce(0, +))
    }

    /// Collects now (after the API accepted samples); returns without waiting.
    public func wake() {
        collector.wake()
    }

    /// Collects now and returns once everything collected has been evaluated and every
    /// resulting alert raised.
    public func settle() async {
        await collector.collect()
        await collector.waitUntilConfirmed()
        await anomalies.waitUntilIdle()
        await anomaliesInFlight.waitUntilZero()
        await alerts.waitUntilIdle()
    }

    /// Brings the care-worker agents in line with the registry's workers: new workers
    /// get an agent, changed ones (sectors, duty) a fresh one, removed ones lose theirs.
    public func refreshStaff() async throws {
        try await roster.refresh()
    }

    /// Each patient's NEWS2 from their latest readings, as last published (patients
    /// with readings since the pipeline started).
    public var latestNEWS2: [PatientID: NEWS2Event] {
        get async { await anomalies.evaluator.latestNEWS2 }
    }

    /// The staff ids with a care-worker agent, sorted.
    public var careWorkers: [StaffID] {
        get async { await roster.staff }
    }

    /// Stops the pipeline without losing accepted samples: a last collection, evaluated
    /// and alerted on, then every agent stops.
    public func shutdown() async {
        await settle()
        await collector.agent.stop()
        await anomalies.agent.stop()
        await alerts.agent.stop()
        await roster.stopAll()
    }
}
