import Foundation
import Logging
import Metrics
import SADECore
import SADEHealth
import SADEHealthSQLite
import SADEHome
import SADEHomePostgres
import SADEHomeSQLite
import SADENotification
import SADEPostgres
import Synchronization

/// The remote patient monitoring application without its HTTP face: the stores in a
/// data directory, the agent platform and the notification outbox, opened together
/// and shut down together.
public final class MonitoringSystem: Sendable {
    /// How to open the system.
    public struct Configuration: Sendable {
        /// Where the SQLite databases live; `nil` keeps everything in memory (tests).
        public var dataDirectory: String?
        /// How passwords are hashed.
        public var passwordHasher: PasswordHasher
        /// The mail server for e-mail notifications, if any.
        public var smtp: SMTPConfiguration?
        /// Where to POST every notification as a signed webhook, if anywhere.
        public var webhookURL: String?
        /// The webhook's HMAC secret.
        public var webhookSecret: String?
        /// Web Push to the app users' phones; `nil` pushes nothing.
        public var push: PushConfiguration?
        /// The platform's clock; a ``ManualClock`` in tests.
        public var clock: any Clock<Duration>
        /// The date at which `clock` reads zero.
        public var epoch: Date
        /// The platform's name.
        public var platformName: String
        /// Adjusts the pipeline's settings (intervals, alert rules); its epoch is ``epoch``.
        public var tunePipeline: @Sendable (inout MonitoringPipeline.Configuration) -> Void
        /// How often the demo's simulated monitors send readings.
        public var simulatedMonitorInterval: Duration
        /// How long the homes' sensor events are kept (their hourly statistics stay); `nil` keeps them all.
        public var homeEventRetention: Duration?
        /// How long samples are kept (purged hourly in the background); `nil` keeps them all.
        public var sampleRetention: Duration?
        /// The keys that seal identifying data (patients' and workers' names, dates of
        /// birth, contact details; accounts' names, e-mail addresses and locations) before
        /// any store sees it; `nil` stores them as they are.
        public var dataKeys: DataKeyRing?
        /// The health store and clinical registry to use (e.g. a `PostgresHealthStore`
        /// shared by several nodes); `nil` opens `health.sqlite` in ``dataDirectory``.
        public var healthStore: (any HealthStore & ClinicalRegistry)?
        /// Where accounts and device tokens are kept (e.g. `PostgresAccountRecords`, so
        /// that every node knows them); `nil` keeps them in the monitoring database, or in
        /// ``postgres`` when there is one.
        public var accountRecords: (any AccountRecords & DeviceTokenRecords)?
        /// The PostgreSQL database several nodes share: the notification outbox, the alert
        /// book and the pipeline's anchors go there (and accounts, unless
        /// ``accountRecords`` says otherwise); `nil` keeps them in SQLite in ``dataDirectory``.
        public var postgres: PostgresPool?
        /// This node's name among several: the holder of its leases, what `/health` reports.
        public var nodeName: String
        /// How long a node's leases (its shards of patients, the singletons) last
        /// unrenewed: a dead node's patients are evaluated by the others within it.
        /// Default 10 seconds.
        public var evaluationLease: Duration

        /// A configuration for `dataDirectory`.
        public init(
            dataDirectory: String?, passwordHasher: PasswordHasher = .standard, smtp: SMTPConfiguration? = nil,
            webhookURL: String? = nil, webhookSecret: String? = nil, push: PushConfiguration? = nil, clock: any Clock<Duration> = ContinuousClock(), epoch: Date = Date(),
            platformName: String = "hospital", simulatedMonitorInterval: Duration = .seconds(5),
            homeEventRetention: Duration? = .seconds(365 * 86_400), sampleRetention: Duration? = nil, dataKeys: DataKeyRing? = nil, healthStore: (any HealthStore & ClinicalRegistry)? = nil,
            accountRecords: (any AccountRecords & DeviceTokenRecords)? = nil, postgres: PostgresPool? = nil,
            nodeName: String = MonitoringSystem.defaultNodeName, evaluationLease: Duration = .seconds(10),
            tunePipeline: @escaping @Sendable (inout MonitoringPipeline.Configuration) -> Void = { _ in }
        ) {
            self.healthStore = healthStore
            self.accountRecords = accountRecords
            self.postgres = postgres
            self.nodeName = nodeName
            self.evaluationLease = evaluationLease
            self.homeEventRetention = homeEventRetention
            self.sampleRetention = sampleRetention
            self.dataKeys = dataKeys
            self.dataDirectory = dataDirectory
            self.passwordHasher = passwordHasher
            self.smtp = smtp
            self.webhookURL = webhookURL
            self.webhookSecret = webhookSecret
            self.push = push
            self.clock = clock
            self.epoch = epoch
            self.platformName = platformName
            self.simulatedMonitorInterval = simulatedMonitorInterval
            self.tunePipeline = tunePipeline
        }
    }

    /// What the system was opened with.
    public let configuration: Configuration
    /// Accounts, device tokens and the pipeline's bookkeeping.
    public let database: MonitoringDatabase
    /// Accounts and passwords.
    public let accounts: AccountStore
    /// Device tokens.
    public let devices: DeviceTokens
    /// Who did what to whose data: `audit.sqlite` in the data directory, or
    /// ``Configuration/postgres`` (one chain for every node).
    public let audit: AuditTrail
    /// Samples and the clinical registry: SQLite in the data directory, or the store
    /// given in the configuration (PostgreSQL for several nodes).
    public let health: any HealthStore & ClinicalRegistry
    /// Who may see and write what.
    public let access: AccessRules
    /// In-app notifications, live.
    public let appNotifications: AppNotificationHub
    /// Every notification, durably, until delivered.
    public let outbox: NotificationOutbox
    /// The Web Push channel, when ``Configuration/push`` is set: its key and subscriptions.
    public let push: WebPushChannel?
    /// The one-time tokens of the pushes' buttons, when ``Configuration/push`` is set.
    public let pushActions: PushActionTokens?
    /// Alerts and their escalation.
    public let alertDesk: AlertDesk
    /// The agents' platform.
    public let platform: Environment
    /// Live events for dashboards.
    public let events: MonitoringEventHub
    /// The collector, anomalies and alert agents and the alert book.
    public let pipeline: MonitoringPipeline
    /// Simulated bedside monitors (the demo adds some), a data source of the collector.
    public let simulatedMonitors: SimulatedMonitorSource
    /// The smart homes: flats, devices, events and messages (`home.sqlite`, or
    /// ``Configuration/postgres`` shared by every node).
    public let homeStore: any HomeStore
    /// The smart homes' service: ingestion, the home agents, the live event bus.
    public let home: HomeService
    /// The wearable facade's projects and data items.
    public let wearableStore: WearableStore
    /// Which patients this node evaluates and whether it runs the singletons, when
    /// several share ``Configuration/postgres``.
    let leases: NodeLeases?
    let logger: Logger
    /// `sade_samples_accepted_total`, in the swift-metrics factory bound when the system
    /// was created (see ``recordMetrics()``).
    let samplesCounter: Counter
    /// Work that runs until shutdown (the demo homes' simulation), cancelled first then.
    private let background = Mutex<[Task<Void, Never>]>([])
    /// The leases' renewals: they go on until the pipeline has evaluated what was
    /// accepted, so that no other node evaluates its patients meanwhile.
    private let renewals = Mutex<Task<Void, Never>?>(nil)
    /// The live events' relay to the other nodes, once started.
    private let relay = Mutex<MonitoringEventRelay?>(nil)
    /// What the other nodes' clients watch, once started.
    private let interest = Mutex<LiveInterest?>(nil)
    /// The homes' events and facts relay to the other nodes, once started.
    private let homeRelay = Mutex<HomeRelay?>(nil)
    /// What runs on one node only (the home agents, the issue track's office).
    private let singletons = Singletons()
    /// Whether a notification to the other nodes is on its way, and whether samples
    /// were accepted since it left (then another follows it).
    private let notifying = Mutex((onItsWay: false, again: false))

    /// Keeps `task` running until ``shutdown()``, which cancels it.
    public func keep(_ task: Task<Void, Never>) {
        background.withLock { $0.append(task) }
    }

    /// Opens the databases (creating and migrating them) and the platform; nothing runs
    /// until ``start()``.
    public init(configuration: Configuration, logger: Logger = Logger(label: "sade.monitoring")) async throws(MonitoringError) {
        self.configuration = configuration
        self.logger = logger
        samplesCounter = Counter(label: "sade_samples_accepted_total")
        // The platform's clock reads zero at `epoch`: create it before the databases are
        // opened, or the system's dates lag the machine's by the time that takes (and
        // readings stamped by well-synchronised devices look as if from the future).
        platform = Environment(name: configuration.platformName, clock: configuration.clock, logger: logger)
        database = try MonitoringDatabase(directory: configuration.dataDirectory)
        var accountRecords = configuration.accountRecords
        if accountRecords == nil, let postgres = configuration.postgres { accountRecords = try await PostgresAccountRecords(postgres) }
        var records = accountRecords ?? SQLiteAccountRecords(writer: database.writer)
        if let keys = configuration.dataKeys { records = SealingAccountRecords(records, keys: keys) }
        accounts = AccountStore(records: records, hasher: configuration.passwordHasher)
        devices = DeviceTokens(records: records)
        if let postgres = configuration.postgres {
            audit = AuditTrail(records: try await PostgresAuditRecords(postgres))
        } else {
            audit = AuditTrail(records: try SQLiteAuditRecords(directory: configuration.dataDirectory))
        }
        do {
            let store = try configuration.healthStore
                ?? configuration.dataDirectory.map { directory throws(HealthError) in try SQLiteHealthStore(directory: directory) }
                ?? SQLiteHealthStore.inMemory() as any HealthStore & ClinicalRegistry
            health = configuration.dataKeys.map { SealingHealthStore(store, keys: $0) } ?? store
        } catch { throw MonitoringError(error) }
        if let postgres = configuration.postgres {
            wearableStore = WearableStore(records: try await PostgresWearableRecords(postgres))
        } else {
            wearableStore = WearableStore(database: database)
        }
        access = AccessRules(registry: health)
        appNotifications = AppNotificationHub()
        var channels: [any NotificationChannel] = [appNotifications]
        if let smtp = configuration.smtp { channels.append(EmailChannel(smtp)) }
        if let url = configuration.webhookURL { channels.append(WebhookChannel(url: url, secret: configuration.webhookSecret)) }
        let outboxClock = OutboxClock(clock: platform.clock, origin: configuration.epoch)
        let outboxStore: any OutboxStore
        do {
            if let postgres = configuration.postgres {
                outboxStore = try await PostgresOutboxStore(postgres)
            } else {
                outboxStore = try SQLiteOutboxStore(directory: configuration.dataDirectory)
            }
        } catch { throw MonitoringError(opening: "the notification outbox", error) }
        // One configuration, one key: the channel and the tokens of its buttons are made together.
        let pushParts = configuration.push.map { [accounts, outboxClock] push in
            let tokens = PushActionTokens(vapid: push.key)
            let decoration = PushDecoration(tokens: tokens, clock: { outboxClock.now })
            let channel = WebPushChannel(
                subscriptions: outboxStore.pushSubscriptions, key: push.key, policy: push.policy, trustedCAFile: push.trustedCAFile,
                decoration: { notice, account in
                    decoration.decorate(notice, for: account, role: try? await accounts.account(username: account)?.role)
                },
                accounts: { recipient in try await accounts.usernames(of: recipient) })
            return (channel: channel, tokens: tokens)
        }
        push = pushParts?.channel
        pushActions = pushParts?.tokens
        if let push { channels.append(push) }
        outbox = NotificationOutbox(store: outboxStore, channels: channels, clock: outboxClock)
        alertDesk = AlertDesk(outbox: outbox)
        do {
            if let postgres = configuration.postgres {
                homeStore = try await PostgresHomeStore(postgres)
            } else {
                homeStore = try SQLiteHomeStore(
                    path: configuration.dataDirectory.map { ($0 as NSString).appendingPathComponent(SQLiteHomeStore.fileName) })
            }
        } catch { throw MonitoringError(opening: "the home store", error) }
        let home = HomeService(
            store: homeStore, desk: alertDesk, platform: platform, clock: OutboxClock(clock: platform.clock, origin: configuration.epoch),
            family: { [accounts] flat in
                guard let resident = flat.resident else { return [] }
                return try await accounts.accounts(role: .relative).filter { $0.relativeOf.contains(resident) }.map(\.username)
            },
            agentsRunHere: configuration.postgres == nil)
        self.home = home
        events = MonitoringEventHub()
        simulatedMonitors = SimulatedMonitorSource(
            simulators: [], interval: configuration.simulatedMonitorInterval, clock: platform.clock, epoch: configuration.epoch)
        var pipelineConfiguration = MonitoringPipeline.Configuration(epoch: configuration.epoch)
        configuration.tunePipeline(&pipelineConfiguration)
        let pipelineRecords: any PipelineRecords
        do {
            if let postgres = configuration.postgres {
                pipelineRecords = try await PostgresPipelineRecords(postgres)
            } else {
                pipelineRecords = SQLitePipelineRecords(database)
            }
        } catch { throw MonitoringError(opening: "the alert book", error) }
        // Alone, this node evaluates every patient and runs the singletons; with others,
        // each node the patients of the shards it holds leases on, one node the singletons.
        let pipelineClock = PipelineClock(clock: platform.clock, epoch: configuration.epoch)
        let gate = configuration.postgres == nil ? EvaluationGate() : EvaluationGate(clock: pipelineClock)
        let sourcesGate = configuration.postgres == nil ? LeaseGate() : LeaseGate(clock: pipelineClock)
        let pipeline = MonitoringPipeline(
            environment: platform, store: health, records: pipelineRecords, outbox: outbox, desk: alertDesk, events: events,
            configuration: pipelineConfiguration, sources: [simulatedMonitors], gate: gate, sourcesGate: sourcesGate)
        self.pipeline = pipeline
        // Alone, started with the system (and stopped at shutdown); with others, while holding the singletons' lease.
        singletons.add("home agents", start: { try await home.startAgents() }, stop: { await home.stopAgents() })
        if let postgres = configuration.postgres {
            let singletons = self.singletons
            do {
                leases = NodeLeases(
                    leases: try await PostgresLeases(postgres), node: configuration.nodeName, period: configuration.evaluationLease, shards: gate,
                    singletons: sourcesGate, clock: pipelineClock, logger: logger,
                    gained: { _ in await pipeline.tookOver() }, busy: { shards in await pipeline.isEvaluating(shards) },
                    singletonsOpened: { [simulatedMonitors, logger] in
                        await simulatedMonitors.skipMissedTicks()  // another node's monitors ran meanwhile
                        // The home agents run on one node (a detector that fired while the last
                        // one died is raised on start), and so does the issue track's office.
                        singletons.start(logger: logger)
                    },
                    singletonsClosed: { await singletons.stop() })
            } catch { throw MonitoringError(opening: "the leases", error) }
        } else {
            leases = nil
        }
    }

    /// The current time on the platform's clock.
    public func now() -> Date {
        configuration.epoch.addingTimeInterval(platform.clock.elapsed.seconds)
    }

    /// Tells the collector that `count` samples were stored through the API, so that
    /// they are evaluated now rather than at its next cycle; counts them in
    /// `sade_samples_accepted_total`.
    public func samplesAccepted(_ count: Int) {
        samplesCounter.increment(by: count)
        pipeline.wake()
        guard let postgres = configuration.postgres, !pipeline.gate.shards.isAll else { return }
        let idle = notifying.withLock { state in
            guard !state.onItsWay else {
                state.again = true
                return false
            }
            state.onItsWay = true
            return true
        }
        guard idle else { return }
        // Other nodes evaluate some patients: tell them, rather than have them wait for
        // their next cycle — one notification at a time, however many requests come
        // meanwhile, and one more after it when some did (the other nodes may have read
        // before those samples were stored).
        Task { [node = configuration.nodeName] in
            repeat {
                self.notifying.withLock { $0.again = false }  // this one tells of the samples accepted so far
                try? await postgres.notify(Self.samplesChannel, node)
            } while self.notifying.withLock { state in
                state.onItsWay = state.again  // another round when samples came meanwhile
                state.again = false
                return state.onItsWay
            }
        }
    }

    /// The notification channel on which nodes say they accepted samples.
    static let samplesChannel = "sade_samples_accepted"

    /// The default node name: the host's name and the process id.
    public static var defaultNodeName: String {
        "\(ProcessInfo.processInfo.hostName)-\(ProcessInfo.processInfo.processIdentifier)"
    }

    /// This node's name.
    public var node: String { configuration.nodeName }

    /// Whether this node evaluates any patient's samples now (every one, alone).
    public var evaluates: Bool { pipeline.gate.isOpen }

    /// The shards of patients this node evaluates now (all, alone).
    public var evaluatedShards: PatientShards { pipeline.gate.shards }

    /// Whether this node runs what runs on one node only now: the simulated monitors,
    /// the home agents, the issue track's office (always, alone).
    public var runsSingletons: Bool { pipeline.sourcesGate.isOpen }

    /// Whether a client of another node watches live events of `kind` now (always true
    /// of alerts and what follows them; false with no other node).
    package func othersWatch(_ kind: MonitoringEvent.Kind) -> Bool {
        interest.withLock { $0 }?.othersWant(kind) ?? false
    }

    /// Tells the other nodes now what this node's clients watch, and returns once it is
    /// sent (nothing to do alone).
    package func announceWatching() async {
        await interest.withLock { $0 }?.announceNow()
    }

    /// The leases this node holds, by name, with when each runs out unless renewed.
    public var heldLeases: [String: Date] {
        leases?.held ?? [:]
    }

    /// Renews this node's leases now, taking or giving up shards toward its fair share
    /// (the renewal loop does every third of a lease period; tests call it directly).
    package func renewLeases() async {
        await leases?.renew()
    }

    /// Runs `start` whenever this node takes the singletons' lease and `stop` when it
    /// loses or gives it up, halts or shuts down: a singleton that must run on one node at
    /// a time (the issue track's office). Add it before ``start()``; with one node
    /// (no PostgreSQL) nothing is called: the caller runs it.
    public func runAsSingleton(
        _ name: String, start: @escaping @Sendable () async throws -> Void, stop: @escaping @Sendable () async -> Void
    ) {
        guard configuration.postgres != nil else { return }
        singletons.add(name, start: start, stop: stop)
    }

    /// Brings the care-worker agents in line with the registry after staff, sectors or
    /// duty changed.
    public func staffChanged() async throws {
        try await pipeline.refreshStaff()
        // The other nodes' care-worker agents follow (each evaluating node's run its patients' Contract Nets).
        if let postgres = configuration.postgres { try? await postgres.notify(Self.staffChannel, configuration.nodeName) }
    }

    /// Runs `body` while no other node sharing the database runs a body of the same
    /// `name` (an advisory lock held by a transaction of its own); alone, at once.
    public func oneNodeAtATime<Result: Sendable>(
        _ name: String, _ body: @escaping @Sendable () async throws -> Result
    ) async throws -> Result {
        guard let postgres = configuration.postgres else { return try await body() }
        return try await postgres.transaction { connection in
            try await connection.rows("SELECT pg_advisory_xact_lock(hashtext(\(name)))", postgres)
            return try await body()
        }
    }

    /// The notification channel on which nodes say that staff, sectors or duty changed.
    static let staffChannel = "sade_staff_changed"

    /// How many alerts about `patient` are open.
    public func openAlertCount(patient: PatientID) async throws(MonitoringError) -> Int {
        do { return try await pipeline.book.openAlertCounts(patients: [patient])[patient] ?? 0 } catch {
            throw .storage(error.description)
        }
    }

    /// Starts delivering notifications, then the agents (which resume unfinished
    /// escalations and evaluate what was accepted but not yet evaluated).
    public func start() async throws {
        await outbox.start()
        try await pipeline.start()
        if leases == nil { try await home.startAgents() }  // else when this node takes the singletons' lease
        if let retention = configuration.homeEventRetention { keep(homeRetention(keeping: retention)) }
        if let retention = configuration.sampleRetention { keep(sampleRetention(keeping: retention)) }
        if let leases, let postgres = configuration.postgres {
            await leases.renew()  // the first node up evaluates from the start
            renewals.withLock { $0 = Task { await leases.run() } }
            keep(await onNotification(Self.samplesChannel, on: postgres) { [pipeline] in pipeline.wake() })
            keep(await onNotification(Self.staffChannel, on: postgres) { [pipeline, logger] in
                do { try await pipeline.refreshStaff() } catch { logger.warning("care-worker agents not refreshed", metadata: ["error": "\(error)"]) }
            })
            let interest = LiveInterest(pool: postgres, hub: events, node: configuration.nodeName, logger: logger)
            self.interest.withLock { $0 = interest }
            keep(Task { await interest.relay.send() })
            let announcements = await interest.relay.listen()
            keep(Task { await interest.relay.receive(announcements) })
            keep(Task { await interest.announce() })
            let relay = MonitoringEventRelay(pool: postgres, hub: events, node: configuration.nodeName, logger: logger, interest: interest)
            self.relay.withLock { $0 = relay }
            keep(Task { await relay.send() })
            let relayed = await relay.listen()  // listening before start returns: no event after it is missed
            keep(Task { await relay.receive(relayed) })
            let homeRelay = HomeRelay(pool: postgres, home: home, node: configuration.nodeName, logger: logger)
            self.homeRelay.withLock { $0 = homeRelay }
            keep(Task { await homeRelay.send() })
            let homeNews = await homeRelay.listen()
            keep(Task { await homeRelay.receive(homeNews) })
        }
    }

    /// Runs `action` whenever another node notifies `channel` (it accepted samples: wake
    /// the collector, which collects only while this node evaluates; staff changed:
    /// refresh the care-worker agents). Returns once listening; a lost connection is
    /// listened on again.
    private func onNotification(
        _ channel: String, on postgres: PostgresPool, _ action: @escaping @Sendable () async -> Void
    ) async -> Task<Void, Never> {
        let first = try? await postgres.listen(channel)
        return Task { [logger, node = configuration.nodeName] in
            var stream = first
            while !Task.isCancelled {
                do {
                    if stream == nil { stream = try await postgres.listen(channel) }
                    let senders = stream ?? AsyncThrowingStream(String.self) { $0.finish() }
                    for try await sender in senders where sender != node { await action() }
                } catch {
                    if Task.isCancelled { return }
                    logger.warning("not listening to the other nodes; trying again", metadata: ["channel": "\(channel)", "error": "\(error)"])
                }
                stream = nil
                guard (try? await Task.sleep(for: .seconds(1))) != nil else { return }
            }
        }
    }

    /// Stops evaluating and renewing the leases without giving them up, as a node that
    /// died would: the other nodes take over once the leases run out (tests of failover
    /// in one process).
    package func halt() async {
        for task in background.withLock({ tasks in defer { tasks = [] }; return tasks }) { task.cancel() }
        let renewing = renewals.withLock { $0 }
        renewing?.cancel()
        await renewing?.value  // a renewal in flight opens nothing after this
        await leases?.halt()
        pipeline.gate.close()
        await singletons.stop()
    }

    /// Once a day (and at start), deletes home events older than `retention`.
    /// Removes every sample that started more than `retention` ago, type by type, in
    /// batches of `batch` (each its own short transaction, so ingest waits at most for
    /// one); returns how many.
    @discardableResult
    public func purgeSamples(olderThan retention: Duration, batch: Int = 2_000) async throws -> Int {
        let cutoff = now().addingTimeInterval(-retention.seconds)
        var purged = 0
        for type in HealthType.all {
            while true {
                let removed = try await health.purge(type, startedBefore: cutoff, limit: batch)
                purged += removed
                if removed < batch { break }
                await Task.yield()
            }
        }
        return purged
    }

    /// Purges old samples now and every hour (on the node that runs the singletons, when
    /// several share one database).
    private func sampleRetention(keeping retention: Duration) -> Task<Void, Never> {
        Task { [platform, logger] in
            while !Task.isCancelled {
                if runsSingletons || leases == nil {
                    do {
                        let purged = try await purgeSamples(olderThan: retention)
                        if purged > 0 { logger.info("sample retention: purged \(purged) samples older than \(retention)") }
                    } catch {
                        logger.error("sample retention failed", metadata: ["error": "\(error)"])
                    }
                }
                guard (try? await platform.clock.sleep(for: .seconds(3_600))) != nil else { return }
            }
        }
    }

    private func homeRetention(keeping retention: Duration) -> Task<Void, Never> {
        Task { [homeStore, platform, logger] in
            while !Task.isCancelled {
                do {
                    let deleted = try await homeStore.deleteEvents(before: now().addingTimeInterval(-retention.seconds))
                    if deleted > 0 { logger.info("home retention: deleted \(deleted) events older than \(retention)") }
                } catch {
                    logger.error("home retention failed", metadata: ["error": "\(error)"])
                }
                guard (try? await platform.clock.sleep(for: .seconds(86_400))) != nil else { return }
            }
        }
    }

    /// Stops the agents, then delivers what the outbox can before stopping it; every
    /// accepted sample is already stored and every notification is in the outbox.
    public func shutdown() async {
        for task in background.withLock({ tasks in defer { tasks = [] }; return tasks }) { task.cancel() }
        let stopped = await Self.finishes(within: Self.shutdownGrace) { [pipeline] in await pipeline.shutdown() }
        if !stopped { logger.warning("the pipeline did not settle within \(Self.shutdownGrace); stopping anyway") }
        await relay.withLock { $0 }?.flush()  // the last evaluation's events reach the other nodes' clients
        let renewing = renewals.withLock { $0 }
        renewing?.cancel()
        await renewing?.value  // a renewal in flight must not take the lease back after the release
        await leases?.release()  // evaluated what it accepted: the other nodes go on at once
        await singletons.stop()
        await homeRelay.withLock { $0 }?.flush()  // what the homes did until now reaches the other nodes
        events.finishAll()
        await platform.shutdown()
        await outbox.stop()
        await push?.shutdown()
    }

    /// Runs `work` and waits for it at most `limit` (on the machine's clock): whether it
    /// finished. Work that overruns goes on in the background.
    static func finishes(within limit: Duration, _ work: @escaping @Sendable () async -> Void) async -> Bool {
        let outcome = Mutex<CheckedContinuation<Bool, Never>?>(nil)
        return await withCheckedContinuation { continuation in
            outcome.withLock { $0 = continuation }
            let finish: @Sendable (Bool) -> Void = { finished in outcome.withLock { $0.take()?.resume(returning: finished) } }
            Task {
                await work()
                finish(true)
            }
            Task {
                try? await Task.sleep(for: limit)
                finish(false)
            }
        }
    }

    /// How long shutdown waits for the pipeline to evaluate what was accepted.
    static let shutdownGrace = Duration.seconds(20)
}

/// What runs on one node at a time, the one holding the singletons' lease: started
/// (not awaited — many flats must not hold up the lease's renewal) when this node takes
/// it, stopped when it loses it. Starts and stops run one after the other in the
/// order they were asked for, a stop cancelling a start still running first, so
/// nothing is left running on a node that no longer holds the lease, and nothing runs twice.
/// A start that fails (the database away a moment) is tried again, after the others, a
/// second later and then up to every 10 s, until it works or a stop comes. A start must
/// not wait for a stop (the stop waits for it).
private final class Singletons: Sendable {
    private struct Singleton {
        let name: String
        let start: @Sendable () async throws -> Void
        let stop: @Sendable () async -> Void
    }

    private let singletons = Mutex<[Singleton]>([])
    /// The last start or stop asked for; the next runs after it.
    private let last = Mutex<(task: Task<Void, Never>, isStart: Bool)?>(nil)

    func add(_ name: String, start: @escaping @Sendable () async throws -> Void, stop: @escaping @Sendable () async -> Void) {
        singletons.withLock { $0.append(Singleton(name: name, start: start, stop: stop)) }
    }

    /// Starts each in the background, in the order added.
    func start(logger: Logger) {
        let all = singletons.withLock { $0 }
        last.withLock { last in
            let previous = last?.task
            last = (Task {
                await previous?.value
                // Each in the order added; one that fails is tried again after the others,
                // so it holds none of them up.
                var pending = all
                var wait = Duration.seconds(1)
                while !pending.isEmpty, !Task.isCancelled {
                    var failed: [Singleton] = []
                    for singleton in pending where !Task.isCancelled {
                        do {
                            try await singleton.start()
                        } catch {
                            if Task.isCancelled { break }  // a stop came: not a failure
                            logger.error("not started on the node running the singletons; trying again", metadata: ["what": "\(singleton.name)", "error": "\(error)"])
                            failed.append(singleton)
                        }
                    }
                    pending = failed
                    guard !pending.isEmpty, (try? await Task.sleep(for: wait)) != nil else { break }
                    wait = min(wait * 2, .seconds(10))
                }
            }, true)
        }
    }

    /// Cancels a start still running, then stops each, last added first; returns once stopped.
    func stop() async {
        let all = singletons.withLock { $0 }
        let stopping = last.withLock { last in
            let previous = last
            if let previous, previous.isStart { previous.task.cancel() }
            let task = Task {
                await previous?.task.value
                for singleton in all.reversed() { await singleton.stop() }
            }
            last = (task, false)
            return task
        }
        await stopping.value
    }
}
