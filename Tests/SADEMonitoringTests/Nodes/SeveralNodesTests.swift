import Foundation
import SADECore
import SADEHealth
import SADEHealthPostgres
@testable import SADEMonitoring
import SADENotification
import SADEPostgres
import SADETestSupport
import Logging
import SADETestTiming
import Testing

/// Returns once `condition` holds, giving way to other work between looks (or when the
/// test is cancelled at its time limit: the expectations that follow then fail).
func until(_ condition: () async throws -> Bool) async rethrows {
    while try await !condition(), !Task.isCancelled { await Task.yield() }
}

@Suite("Several nodes on one PostgreSQL database", .serialized, .timeLimit(.minutes(3)), .timed)
struct SeveralNodesTests {
    /// A node: a whole monitoring system on the shared database, with a clock of its own.
    struct Node {
        let system: MonitoringSystem
        let clock: ManualClock

        static func start(_ name: String, on url: String) async throws -> Node {
            let clock = ManualClock()
            let pool = try await PostgresPool.connect(PostgresLocation(url: url), maximumConnections: 8, timeout: .seconds(30))
            let system = try await MonitoringSystem(
                configuration: .init(
                    dataDirectory: nil, passwordHasher: .fastForTests, clock: clock, epoch: Ward.epoch,
                    healthStore: try await PostgresHealthStore(pool), postgres: pool, nodeName: name, evaluationLease: .seconds(10),
                    tunePipeline: { $0.alertRules = AlertRules(outOfRangeSeverity: .warning) }))
            try await system.start()
            return Node(system: system, clock: clock)
        }

        /// A heart rate `seconds` after the epoch, accepted by this node.
        func accept(_ value: Double, for patient: PatientID, at seconds: TimeInterval) async throws -> HealthSample {
            let sample = HealthSample.quantity(.heartRate, value, patient: patient, at: Ward.epoch.addingTimeInterval(seconds))
            try await system.health.save(sample, as: .system)
            system.samplesAccepted(1)
            return sample
        }
    }

    @Test("""
        the first node up evaluates every patient, any accepts; when it dies, the other takes its shards within one period, \
        evaluates what the dead one accepted, raises no second alert for an open episode, and goes on escalating the dead node's alert
        """)
    func failover() async throws {
        let url = try await PostgresTestServer.makeDatabase()
        let a = try await Node.start("node-a", on: url)
        let b = try await Node.start("node-b", on: url)
        try await Ward.seed(a.system.health, patients: [Ward.patient("patient-01", in: "covid-ward"), Ward.patient("patient-02", in: "covid-ward")])
        try await a.system.staffChanged()
        try await b.system.staffChanged()
        #expect(a.system.evaluatedShards.isAll && !b.system.evaluates, "the first node up holds every shard's lease (B's renewals share them out)")
        #expect(a.system.runsSingletons && !b.system.runsSingletons)
        #expect(Set(a.system.heldLeases.keys) == Set(["monitoring/node/node-a", NodeLeases.singletonsName] + PatientShards.all.members.map(NodeLeases.shardName)))
        #expect(b.system.heldLeases.keys.sorted() == ["monitoring/node/node-b"])

        // Accepted by the node that does not evaluate: evaluated by the one that does.
        _ = try await b.accept(150, for: "patient-01", at: 0)
        await a.system.pipeline.settle()
        let first = try #require(try await b.system.pipeline.book.alerts(patients: ["patient-01"]).first, "every node lists the alert")
        #expect(first.assignee != nil)

        // Node A dies with samples it accepted and never evaluated.
        await a.system.halt()
        let left = [
            try await a.accept(152, for: "patient-01", at: 5), try await a.accept(40, for: "patient-02", at: 5),
        ]
        var log = b.system.events.subscribe(buffer: 1000).makeAsyncIterator()
        b.clock.advance(by: .seconds(10))  // one lease period, on B's clock …
        await b.system.renewLeases()  // … and B's next renewal (its loop's, or this one)
        #expect(b.system.evaluatedShards.isAll && b.system.runsSingletons)
        #expect(b.system.heldLeases.count == PatientShards.count + 2)
        await b.system.pipeline.settle()
        var evaluated: Set<UUID> = []
        while !left.allSatisfy({ evaluated.contains($0.id) }), let event = await log.next() {
            if case .samples(let samples) = event { evaluated.formUnion(samples.observations.map(\.id)) }
        }
        #expect(try await b.system.pipeline.book.alerts(patients: ["patient-01"]).map(\.id) == [first.id], "the open episode's alert stands")
        #expect(try await b.system.pipeline.book.alerts(patients: ["patient-02"]).count == 1, "the dead node's sample raised its alert")

        // The dead node's alert escalates to the doctor from the survivor.
        b.clock.advance(by: .seconds(300))
        try await until { try await b.system.outbox.escalations(of: first.id).count == 2 }
        #expect(try await b.system.outbox.escalations(of: first.id).last?.recipients == [.user("doc")])

        await b.system.shutdown()
        #expect(b.system.heldLeases.isEmpty, "given up at shutdown")
        await a.system.shutdown()
    }

    @Test("a node that shuts down gives its leases up: the other evaluates at once, without waiting for them to run out")
    func gracefulHandover() async throws {
        let url = try await PostgresTestServer.makeDatabase()
        let a = try await Node.start("node-a", on: url)
        let b = try await Node.start("node-b", on: url)
        try await Ward.seed(a.system.health, patients: [Ward.patient("patient-03", in: "covid-ward")])
        #expect(a.system.evaluates && !b.system.evaluates)
        await a.system.shutdown()
        b.clock.advance(by: .seconds(4))  // well inside the period A's lease would have lasted
        await b.system.renewLeases()
        #expect(b.system.evaluatedShards.isAll)
        _ = try await b.accept(150, for: "patient-03", at: 4)
        await b.system.pipeline.settle()
        #expect(try await b.system.pipeline.book.alerts(patients: ["patient-03"]).count == 1)
        await b.system.shutdown()
    }

    @Test("live events reach the clients of every node: samples and alerts from the evaluating one, an acknowledgement from the other")
    func liveEventsOnEveryNode() async throws {
        let url = try await PostgresTestServer.makeDatabase()
        let a = try await Node.start("node-a", on: url)
        let b = try await Node.start("node-b", on: url)
        try await Ward.seed(a.system.health, patients: [Ward.patient("patient-04", in: "covid-ward")])
        try await a.system.staffChanged()
        var onB = b.system.events.subscribe(buffer: 1000).makeAsyncIterator()
        var onA = a.system.events.subscribe(buffer: 1000).makeAsyncIterator()
        await until { a.system.othersWatch(.samples) }  // node A has heard that node B's client watches everything
        let sample = try await b.accept(150, for: "patient-04", at: 0)
        await a.system.pipeline.settle()
        let seen = await next(&onB) { if case .samples(let event) = $0 { event.observations.contains { $0.id == sample.id } } else { false } }
        #expect(seen != nil, "node B's client sees the sample node A evaluated")
        guard case .alert(let alert)? = await next(&onB, where: { if case .alert = $0 { true } else { false } }) else {
            Issue.record("node B's client saw no alert")
            return
        }
        #expect(alert.patient == "patient-04")
        try await b.system.pipeline.book.acknowledge(alert.id, by: alert.assignee ?? "dan")
        let acknowledged = await next(&onA) { if case .acknowledged(let record) = $0 { record.id == alert.id } else { false } }
        #expect(acknowledged != nil, "node A's client sees the acknowledgement made on node B")
        await b.system.shutdown()
        await a.system.shutdown()
    }

    @Test("""
        samples and scores stay on the evaluating node while no client of another node watches them; alerts always go; \
        once a client there watches samples, they go too
        """)
    func liveEventsOnlyWhereWatched() async throws {
        let url = try await PostgresTestServer.makeDatabase()
        let a = try await Node.start("node-a", on: url)
        let b = try await Node.start("node-b", on: url)
        try await Ward.seed(a.system.health, patients: [Ward.patient("patient-08", in: "covid-ward")])
        try await a.system.staffChanged()
        // What travels between the nodes, as a third party listening on the channel hears it.
        let listener = try await PostgresPool.connect(PostgresLocation(url: url), maximumConnections: 1, timeout: .seconds(30))
        var relayed = try await listener.listen(MonitoringEventRelay.channel).makeAsyncIterator()
        func nextRelayed() async throws -> [MonitoringEvent] {
            guard let payload = try await relayed.next() else { return [] }
            return try JSONDecoder().decode(MonitoringEventRelay.Envelope.self, from: Data(payload.utf8)).events
        }
        var alertsOnB = b.system.events.subscribe(buffer: 1000, kinds: [.alert]).makeAsyncIterator()
        _ = try await a.accept(150, for: "patient-08", at: 0)
        await a.system.pipeline.settle()
        guard case .alert(let alert)? = await alertsOnB.next() else {
            Issue.record("node B's alerts-only client saw no alert")
            return
        }
        #expect(alert.patient == "patient-08")

        var watchingOnB = b.system.events.subscribe(buffer: 1000).makeAsyncIterator()
        await until { a.system.othersWatch(.samples) }
        let second = try await a.accept(151, for: "patient-08", at: 5)
        await a.system.pipeline.settle()
        var before: [MonitoringEvent] = []
        while true {
            let events = try await nextRelayed()
            if events.contains(where: { if case .samples(let event) = $0 { event.observations.contains { $0.id == second.id } } else { false } }) { break }
            before += events
        }
        #expect(before.contains { $0.alert?.id == alert.id }, "the alert went to node B")
        #expect(!before.contains { $0.kind == .samples || $0.kind == .news2 }, "nothing else went while nobody there watched: \(before.map(\.kind))")
        let seen = await next(&watchingOnB) { if case .samples(let event) = $0 { event.observations.contains { $0.id == second.id } } else { false } }
        #expect(seen != nil, "node B's new client sees the sample node A evaluated")
        await listener.close()
        await b.system.shutdown()
        await a.system.shutdown()
    }

    @Test("a batch of live events goes out in notifications under PostgreSQL's payload limit, a large samples event split, nothing lost")
    func relayPayloads() async throws {
        let pool = try await PostgresPool.connect(PostgresLocation(url: PostgresTestServer.makeDatabase()), maximumConnections: 1, timeout: .seconds(30))
        let hub = MonitoringEventHub()
        let interest = LiveInterest(pool: pool, hub: hub, node: "node-a", logger: Logger(label: "test"))
        let relay = MonitoringEventRelay(pool: pool, hub: hub, node: "node-a", logger: Logger(label: "test"), interest: interest)
        let samples = (0..<200).map { HealthSample.quantity(.heartRate, 60 + Double($0 % 40), patient: "patient-05", at: Ward.epoch.addingTimeInterval(Double($0))) }
        let events: [MonitoringEvent] = [
            .samples(SamplesEvent(patient: "patient-05", sector: "covid-ward", samples: samples)),
            .samples(SamplesEvent(patient: "patient-06", sector: nil, samples: Array(samples.prefix(1)))),
        ]
        let payloads = relay.payloads(events)
        #expect(payloads.count > 1)
        #expect(payloads.allSatisfy { $0.utf8.count <= MonitoringEventRelay.payloadLimit })
        let decoded = try payloads.flatMap { try JSONDecoder().decode(MonitoringEventRelay.Envelope.self, from: Data($0.utf8)).events }
        let observations = decoded.flatMap { event -> [UUID] in if case .samples(let part) = event { part.observations.map(\.id) } else { [] } }
        #expect(observations == samples.map(\.id) + [samples[0].id], "every observation, in order")
        await pool.close()
    }

    @Test("the simulated monitors run on the node holding the singletons' lease only, however many nodes have them")
    func simulatorsOnTheEvaluatingNode() async throws {
        let url = try await PostgresTestServer.makeDatabase()
        let a = try await Node.start("node-a", on: url)
        let b = try await Node.start("node-b", on: url)
        try await Ward.seed(a.system.health, patients: [Ward.patient("patient-07", in: "covid-ward")])
        let onA = VitalSignSimulator(patient: "patient-07", profile: .normal, seed: 1, start: Ward.epoch)
        let onB = VitalSignSimulator(patient: "patient-07", profile: .normal, seed: 2, start: Ward.epoch)
        await a.system.simulatedMonitors.add(onA)
        await b.system.simulatedMonitors.add(onB)
        for node in [a, b] { node.clock.advance(by: .seconds(5)) }  // one reading due on each node's monitor
        await a.system.pipeline.settle()
        await b.system.pipeline.settle()
        let stored = Set(try await a.system.health.samples(SampleQuery(.quantity(.heartRate), patient: "patient-07"), as: .system).map(\.id))
        let fromA = Set(onA.samples(at: Ward.epoch.addingTimeInterval(5)).flatMap(\.flattened).map(\.id))
        let fromB = Set(onB.samples(at: Ward.epoch.addingTimeInterval(5)).flatMap(\.flattened).map(\.id))
        #expect(!stored.isEmpty && stored.isSubset(of: fromA), "node A's monitor read")
        #expect(stored.isDisjoint(with: fromB), "node B's did not")
        await b.system.shutdown()
        await a.system.shutdown()
    }

    @Test("an alert the dead node raised but did not record is recorded by the node that takes over, and the episode joins it")
    func unrecordedAlertAdopted() async throws {
        let url = try await PostgresTestServer.makeDatabase()
        let a = try await Node.start("node-a", on: url)
        let b = try await Node.start("node-b", on: url)
        try await Ward.seed(a.system.health, patients: [Ward.patient("patient-08", in: "covid-ward")])
        try await b.system.staffChanged()
        // Node A raised the alert through the outbox and died before its book row was written.
        let notice = Notice(
            recipients: [.user("dan")], severity: .warning, title: "heartRate 150.0 out of range", body: "b", subject: "patient-08",
            createdAt: Ward.epoch, deduplicationKey: "monitoring:patient-08:clinical:\(UUID())")
        let raised = try await a.system.alertDesk.raise(notice, policy: EscalationPolicy([.init(after: .zero, notify: [.user("dan")])]))
        await a.system.halt()
        #expect(try await b.system.pipeline.book.alert(raised.id) == nil)

        b.clock.advance(by: .seconds(10))
        await b.system.renewLeases()
        #expect(b.system.evaluatedShards.isAll)
        _ = try await b.accept(151, for: "patient-08", at: 10)
        await b.system.pipeline.settle()
        let alerts = try await b.system.pipeline.book.alerts(patients: ["patient-08"])
        #expect(alerts.map(\.id) == [raised.id], "recorded, and joined by the episode instead of a second alert")
        #expect(alerts.first?.assignee == "dan" && alerts.first?.category == .clinical && alerts.first?.sector == "covid-ward")
        try await b.system.pipeline.book.acknowledge(raised.id, by: "dan")
        await b.system.shutdown()
        await a.system.shutdown()
    }

    @Test("""
        a node that joins takes half the shards of patients: each node evaluates its own patients' samples, whichever node \
        accepted them; when one dies the other takes its shards back and evaluates what it left
        """)
    func patientsSharedOut() async throws {
        let url = try await PostgresTestServer.makeDatabase()
        let a = try await Node.start("node-a", on: url)
        let b = try await Node.start("node-b", on: url)
        await a.system.renewLeases()  // A counts two nodes: it closes the upper half of its shards …
        #expect(a.system.evaluatedShards == PatientShards(0..<8) && !b.system.evaluates)
        await a.system.renewLeases()  // … gives them up at its next renewal …
        await b.system.renewLeases()  // … and B takes them
        #expect(a.system.evaluatedShards == PatientShards(0..<8) && b.system.evaluatedShards == PatientShards(8..<16))
        #expect(a.system.runsSingletons && !b.system.runsSingletons, "the singletons stay where they were")

        // A patient of each node's half, each sample accepted by the other node.
        let ids = (0...).lazy.map { PatientID(rawValue: "shared-\($0)") }
        let ofA = try #require(ids.first { a.system.evaluatedShards.contains($0) })
        let ofB = try #require(ids.first { b.system.evaluatedShards.contains($0) })
        try await Ward.seed(a.system.health, patients: [Ward.patient(ofA, in: "covid-ward"), Ward.patient(ofB, in: "covid-ward")])
        try await a.system.staffChanged()
        try await b.system.staffChanged()
        _ = try await b.accept(150, for: ofA, at: 0)
        _ = try await a.accept(150, for: ofB, at: 0)
        try await until {
            try await a.system.pipeline.book.alerts(patients: [ofA, ofB]).count == 2
        }
        for node in [a, b] { await node.system.pipeline.settle() }
        let scoredOnA = await a.system.pipeline.latestNEWS2, scoredOnB = await b.system.pipeline.latestNEWS2
        #expect(scoredOnA[ofA] != nil && scoredOnA[ofB] == nil, "node A scored its patient only")
        #expect(scoredOnB[ofB] != nil && scoredOnB[ofA] == nil, "node B scored its patient only")
        #expect(try await a.system.pipeline.book.alerts(patients: [ofA]).count == 1)
        #expect(try await a.system.pipeline.book.alerts(patients: [ofB]).count == 1)

        // B dies with a sample of its patient accepted and not evaluated: A takes B's shards
        // after one lease period and evaluates it.
        await b.system.halt()
        let left = try await b.accept(40, for: ofB, at: 5)
        a.clock.advance(by: .seconds(10))
        await a.system.renewLeases()
        #expect(a.system.evaluatedShards.isAll)
        await a.system.pipeline.settle()
        let scored = await a.system.pipeline.latestNEWS2[ofB]
        #expect(scored != nil, "node A evaluated what node B left of its patient")
        #expect(try await a.system.health.samples(SampleQuery(.quantity(.heartRate), patient: ofB), as: .system).map(\.id).contains(left.id))
        await b.system.shutdown()
        await a.system.shutdown()
    }

    @Test("staff changed through one node: every node's care-worker agents follow")
    func staffChangesReachEveryNode() async throws {
        let url = try await PostgresTestServer.makeDatabase()
        let a = try await Node.start("node-a", on: url)
        let b = try await Node.start("node-b", on: url)
        try await Ward.seed(b.system.health, patients: [])
        try await b.system.staffChanged()
        await until { await a.system.pipeline.careWorkers.contains("dan") }
        try await b.system.health.save(HealthCareWorker(id: "eve", name: "Eve", role: .nurse, sectors: ["icu"], onDuty: true))
        try await b.system.staffChanged()
        await until { await a.system.pipeline.careWorkers.contains("eve") }
        #expect(await a.system.pipeline.careWorkers == b.system.pipeline.careWorkers)
        await b.system.shutdown()
        await a.system.shutdown()
    }
}
