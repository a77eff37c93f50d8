import Foundation
import PostgresNIO
import SADECore
import SADEHealth
import SADEHealthPostgres
import SADEMonitoring
import SADEPostgres

/// `pg-nodes`: two monitoring systems (nodes) in this process on one PostgreSQL
/// database, on the machine's clock, once they share the patients out. The alert latency
/// of a sample accepted by the node that does not evaluate its patient (told with
/// `NOTIFY`, evaluated by the other, the alert relayed back live), against the same
/// sample accepted by the node that does; and the failover time: from one node's death
/// (it stops renewing its leases) to the other evaluating every patient, against the
/// lease's period. On demand: it needs
/// `--database postgres://…`, where it makes a database of its own and drops it.
struct PostgresNodesSuite: BenchSuite {
    let name = "pg-nodes"
    let workload = "two nodes on one PostgreSQL database: alert latency of a sample accepted by the node not evaluating its patient; failover time with a 3 s lease"
    var isOnDemand: Bool { true }

    /// The leases' period in the failover runs.
    static let lease = Duration.seconds(3)

    func run(in context: BenchContext) async throws -> [BenchFigure] {
        let (alerts, failover) = try await BenchDatabase.with(context, suite: name) { location in
            (try await alertLatency(location, context), try await context.measure { try await Self.failover(location) })
        }
        return [
            context.figure(
                "alert latency, sample accepted by the other node", alerts["remote"], unit: "ms", baseline: alerts["local"],
                baselineName: "accepted by the node evaluating the patient"),
            context.figure(
                "failover, a node dead → the other evaluates every patient", failover["seconds"], unit: "s", baseline: failover["lease"],
                baselineName: "lease period", target: "≤ lease + a third"),
        ]
    }

    /// A node: a monitoring system on `location`, started, with the pool it owns.
    private static func node(_ name: String, _ location: PostgresLocation, lease: Duration) async throws -> MonitoringSystem {
        let pool = try await PostgresPool.connect(location, maximumConnections: 8)
        let system = try await MonitoringSystem(
            configuration: .init(
                dataDirectory: nil, passwordHasher: .fastForTests, homeEventRetention: nil, healthStore: try await PostgresHealthStore(pool),
                postgres: pool, nodeName: name, evaluationLease: lease,
                tunePipeline: { $0.alertRules = AlertRules(outOfRangeSeverity: .warning) }))
        try await system.start()
        return system
    }

    /// The time from a sample accepted (by the node evaluating its patient, or by the
    /// other) to its alert on that node's live events, for a new patient each time.
    private func alertLatency(_ location: PostgresLocation, _ context: BenchContext) async throws -> [String: BenchStatistic] {
        let first = try await Self.node("bench-a", location, lease: .seconds(10))
        let second = try await Self.node("bench-b", location, lease: .seconds(10))
        await Self.shareOut(first, second)
        let evaluating = first
        try await evaluating.health.save(Hospital(id: "bench", name: "Bench hospital"))
        try await evaluating.health.save(HospitalSector(id: "ward", hospital: "bench", name: "Ward", mailingList: []))
        try await evaluating.health.save(HealthCareWorker(id: "nurse", name: "Nurse", role: .nurse, sectors: ["ward"], onDuty: true))
        try await evaluating.staffChanged()
        var next = 0
        let statistics = try await context.measure {
            var latencies: [String: Double] = [:]
            for label in ["local", "remote"] {
                next += 1
                let patient = PatientID(rawValue: "bench-\(next)")
                let owner = first.evaluatedShards.contains(patient) ? first : second
                let node = label == "local" ? owner : (owner === first ? second : first)
                try await node.health.save(Patient(id: patient, name: "Patient \(next)", sector: "ward", bed: "\(next)"))
                let events = node.events.subscribe(buffer: 10_000)
                let start = ContinuousClock.now
                try await node.health.save(.quantity(.heartRate, 150, patient: patient, at: node.now()), as: .system)
                node.samplesAccepted(1)
                guard let arrived = await Self.firstAlert(of: patient, in: events, within: .seconds(10)) else {
                    throw BenchError.unexpected("no alert for \(patient) within 10 s (\(label))")
                }
                latencies[label] = (arrived - start).seconds * 1000
            }
            return latencies
        }
        for node in [second, first] { await Self.stop(node) }
        return statistics
    }

    /// When the first alert about `patient` came on `events`; `nil` after `limit`.
    private static func firstAlert(
        of patient: PatientID, in events: AsyncStream<MonitoringEvent>, within limit: Duration
    ) async -> ContinuousClock.Instant? {
        await withTaskGroup(of: ContinuousClock.Instant?.self) { group in
            group.addTask {
                for await event in events {
                    if case .alert(let alert) = event, alert.patient == patient { return .now }
                }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    /// Shuts a node down and closes its pool.
    private static func stop(_ node: MonitoringSystem) async {
        await node.shutdown()
        await node.configuration.postgres?.close()
    }

    /// Returns once two nodes evaluate half the patients each (their renewals share
    /// the shards out within two thirds of a lease period).
    private static func shareOut(_ first: MonitoringSystem, _ second: MonitoringSystem) async {
        let half = PatientShards.count / 2
        while first.evaluatedShards.members.count != half || second.evaluatedShards.members.count != half {
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Two fresh nodes sharing the patients; one stops renewing, as a dead one would;
    /// the time until the other evaluates every patient.
    private static func failover(_ location: PostgresLocation) async throws -> [String: Double] {
        let dying = try await node("bench-failover-\(UUID().uuidString.prefix(6))", location, lease: lease)
        let survivor = try await node("bench-failover-\(UUID().uuidString.prefix(6))", location, lease: lease)
        await shareOut(dying, survivor)
        let died = ContinuousClock.now
        await dying.halt()
        while !survivor.evaluatedShards.isAll { try await Task.sleep(for: .milliseconds(5)) }
        let seconds = (ContinuousClock.now - died).seconds
        await stop(survivor)
        await stop(dying)
        return ["seconds": seconds, "lease": lease.seconds]
    }
}
