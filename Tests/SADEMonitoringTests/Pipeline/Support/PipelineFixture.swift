import Foundation
import GRDB
import SADECore
import SADEHealth
import SADEHealthSQLite
@testable import SADEMonitoring
import SADENotification
import Synchronization

/// An e-mail channel that records what it is given instead of sending it.
final class RecordingChannel: NotificationChannel {
    let name = "email"
    private let notices = Mutex<[Notice]>([])

    func accepts(_ notification: Notice) -> Bool { !notification.emailAddresses.isEmpty }
    func deliver(_ notification: Notice) async throws { notices.withLock { $0.append(notification) } }
    var delivered: [Notice] { notices.withLock { $0 } }
}

/// A hospital for the pipeline tests. Sector `covid-ward`: `dan` and `cal` on duty,
/// `bea` off duty, doctor `doc`. Sector `icu`: `amy` on duty. Sector `isolation`:
/// only `fay`, off duty. Alphabetically `amy` and `bea` come first, so only the sector
/// and duty rules keep them from winning ties.
enum Ward {
    static let epoch = Date(timeIntervalSince1970: 1_800_000_000)
    static let covidList = "covid-team@hospital.test"
    static let isolationList = "isolation-team@hospital.test"

    static func seed(_ registry: some ClinicalRegistry, patients: [Patient]) async throws {
        try await registry.save(Hospital(id: "demo-hospital", name: "Demo Hospital"))
        try await registry.save(HospitalSector(id: "covid-ward", hospital: "demo-hospital", name: "COVID ward", mailingList: [covidList]))
        try await registry.save(HospitalSector(id: "icu", hospital: "demo-hospital", name: "ICU", mailingList: ["icu-team@hospital.test"]))
        try await registry.save(HospitalSector(id: "isolation", hospital: "demo-hospital", name: "Isolation", mailingList: [isolationList]))
        for (id, sector, onDuty) in [("amy", "icu", true), ("bea", "covid-ward", false), ("cal", "covid-ward", true),
                                     ("dan", "covid-ward", true), ("fay", "isolation", false)] {
            try await registry.save(HealthCareWorker(id: id, name: id.capitalized, role: .nurse, sectors: [sector], onDuty: onDuty))
        }
        try await registry.save(HealthCareWorker(id: "doc", name: "Doc", role: .doctor, sectors: ["covid-ward"], onDuty: true))
        for patient in patients { try await registry.save(patient) }
    }

    static func patient(_ id: PatientID, in sector: SectorID) -> Patient {
        Patient(id: id, name: "Patient \(id.rawValue)", sector: sector, bed: "1")
    }
}

/// A whole pipeline on a manual clock: real SQLite store, monitoring database and
/// outbox (in memory, or in `directory` to test restarts).
struct PipelineFixture {
    let clock: ManualClock
    let environment: Environment
    let store: SQLiteHealthStore
    let database: any DatabaseWriter
    let app: AppNotificationHub
    let mail: RecordingChannel
    let outbox: NotificationOutbox
    let events: MonitoringEventHub
    let pipeline: MonitoringPipeline

    /// Builds (does not start) the pipeline; `simulators` become a simulated-monitor
    /// source ticking every minute.
    static func make(
        directory: URL? = nil, epoch: Date = Ward.epoch, simulators: [VitalSignSimulator] = [], sources: [any NewDataSource] = [],
        rules: AlertRules = AlertRules()
    ) throws -> PipelineFixture {
        let clock = ManualClock()
        let environment = Environment(name: "ward", clock: clock)
        let store = try directory.map { try SQLiteHealthStore(directory: $0.path) } ?? SQLiteHealthStore.inMemory()
        let monitoring = try MonitoringDatabase(directory: directory?.path, migrations: [PipelineMigrations.register])
        let database = monitoring.writer
        let app = AppNotificationHub(), mail = RecordingChannel()
        let outbox = try NotificationOutbox(
            directory: directory?.path, channels: [app, mail], clock: OutboxClock(clock: environment.clock, origin: epoch))
        let events = MonitoringEventHub()
        var sources = sources
        if !simulators.isEmpty {
            sources.append(SimulatedMonitorSource(simulators: simulators, interval: .seconds(60), clock: environment.clock, epoch: epoch))
        }
        let pipeline = MonitoringPipeline(
            environment: environment, store: store, database: monitoring, outbox: outbox, desk: AlertDesk(outbox: outbox), events: events,
            configuration: .init(epoch: epoch, collectionInterval: .seconds(60), alertRules: rules), sources: sources)
        return PipelineFixture(
            clock: clock, environment: environment, store: store, database: database, app: app, mail: mail, outbox: outbox,
            events: events, pipeline: pipeline)
    }

    /// Starts the outbox and the pipeline, and waits for the first collection.
    func start() async throws {
        await outbox.start()
        try await pipeline.start()
        await pipeline.settle()
    }

    /// Advances the clock `count` times by `step`, letting the pipeline settle each time.
    func tick(_ count: Int, every step: Duration = .seconds(60)) async {
        for _ in 0..<count {
            clock.advance(by: step)
            await pipeline.settle()
        }
    }

    /// Ticks until `patient` has an alert (at most `limit` ticks); returns it.
    func tickUntilAlert(for patient: PatientID, limit: Int = 90) async throws -> AlertRecord? {
        for _ in 0..<limit {
            if let alert = try await pipeline.book.alerts(patients: [patient]).first { return alert }
            await tick(1)
        }
        return nil
    }

    func stop() async {
        await pipeline.shutdown()
        await outbox.stop()
    }
}

/// Reads events until one matches.
func next(_ events: inout AsyncStream<MonitoringEvent>.Iterator, where matches: (MonitoringEvent) -> Bool) async -> MonitoringEvent? {
    while let event = await events.next() {
        if matches(event) { return event }
    }
    return nil
}

/// Every event published so far on a stream subscribed earlier: publishes a sentinel
/// and reads up to it.
func drain(_ events: inout AsyncStream<MonitoringEvent>.Iterator, hub: MonitoringEventHub) async -> [MonitoringEvent] {
    let sentinel = SamplesEvent(patient: PatientID("sentinel-\(UUID())"), sector: nil, samples: [])
    hub.publish(.samples(sentinel))
    var seen: [MonitoringEvent] = []
    while let event = await events.next(), event != .samples(sentinel) { seen.append(event) }
    return seen
}

/// A fresh temporary directory.
func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("sade-monitoring-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
