import Foundation
import SADEACL
import SADECore
import SADEHealth

/// The AnomaliesAgent's work around its ``AnomaliesAction``: takes the batches
/// received (and a due check) from the agent's beliefs, supplies their samples and
/// patients' records, then publishes, informs, persists and confirms what was
/// evaluated. One intention runs at a time, so what is in hand belongs to one run.
actor BatchEvaluator {
    let registry: any ClinicalRegistry
    let anchors: any PipelineRecords
    let events: MonitoringEventHub
    let detector: AnomalyDetector
    /// Anomalies sent to the AlertAgent and not handled yet.
    let anomaliesInFlight: InFlightCounter
    /// How old a reading may be and still count for the NEWS2 published.
    let news2Window: TimeInterval
    /// Batches and checks received and not yet done.
    let pending: InFlightCounter
    /// The patients this node evaluates.
    let gate: EvaluationGate
    /// The batches of the run in progress.
    private var inHand: [ReceivedBatch] = []
    /// Of each batch in hand, the shards this node still evaluates: what it evaluates
    /// of the batch, and whose anchors it moves on.
    private var evaluatedShards: [UUID: PatientShards] = [:]
    /// Whether the run in progress carries out a missing-data check.
    private(set) var checkInHand = false
    /// The latest sample of each NEWS2 parameter per patient, for the scores published.
    private var latest: [PatientID: [String: HealthSample]] = [:]
    /// The NEWS2 last published per patient.
    private(set) var latestNEWS2: [PatientID: NEWS2Event] = [:]
    /// The shards whose patients the detector and the scores above know.
    private var held = HeldShards()

    init(
        registry: any ClinicalRegistry, anchors: any PipelineRecords, events: MonitoringEventHub, detector: AnomalyDetector,
        anomaliesInFlight: InFlightCounter, news2Window: TimeInterval, pending: InFlightCounter, gate: EvaluationGate
    ) {
        self.gate = gate
        self.anomaliesInFlight = anomaliesInFlight
        self.news2Window = news2Window
        self.registry = registry
        self.anchors = anchors
        self.events = events
        self.detector = detector
        self.pending = pending
    }

    /// The AnomaliesAction's batch: the samples of every batch received, in arrival
    /// order — those of shards this node still evaluates: a shard given up since its
    /// batch was read is the next holder's, from the anchors left —, and the records of their patients — with every admitted patient's this
    /// node evaluates when a missing-data check is due, so that newly admitted patients
    /// are watched.
    func take(from agent: Agent) async -> AnomaliesAction.Batch {
        (inHand, checkInHand) = await agent.takeAnomaliesWork()
        if let kept = held.keptSinceLastLook(gate) {
            // What is known of patients another node evaluated meanwhile is stale: their
            // episodes and readings there are not these.
            await detector.stopMonitoring(allBut: kept.contains)
            latest = latest.filter { kept.contains($0.key) }
            latestNEWS2 = latestNEWS2.filter { kept.contains($0.key) }
        }
        let open = gate.shards
        var samples: [HealthSample] = []
        for received in inHand {
            let batch = received.batch
            let kept = PatientShards(Set(batch.shards.members).intersection(open.members))
            evaluatedShards[batch.id] = kept
            samples += kept == batch.shards ? batch.samples : batch.samples.filter { kept.contains($0.patient) }
        }
        var records: [PatientID: Patient] = [:]
        if checkInHand {
            do {
                let shards = gate.shards
                for patient in try await registry.patients(in: nil) where patient.sector != nil && shards.contains(patient.id) {
                    records[patient.id] = patient
                }
            } catch {
                agent.logger.warning("patients unavailable for the missing-data check", metadata: ["error": "\(error)"])
            }
        }
        let unread = Set(samples.map(\.patient)).filter { records[$0] == nil }
        do {
            records.merge(try await registry.patients(unread)) { first, _ in first }
        } catch {
            agent.logger.warning("patient records unavailable", metadata: ["patients": "\(unread.count)", "error": "\(error)"])
        }
        return (samples, records)
    }

    /// The AnomaliesAction's completion: publishes the samples and the patients' NEWS2,
    /// informs the AlertAgent of the anomalies, persists the anchors of the batches in
    /// hand and confirms them to the collector.
    func finish(_ findings: AnomaliesAction.Findings, agent: Agent) async {
        publish(findings.samples, records: findings.patients, at: findings.now)
        await inform(findings.anomalies, from: agent)
        // Each group of shards' last batch in hand holds its anchors (batches come in order).
        var reached: [PatientShards: [String: HealthAnchor]] = [:]
        for received in inHand {
            let kept = evaluatedShards[received.batch.id] ?? received.batch.shards
            if !kept.isEmpty { reached[kept] = received.batch.anchors }
        }
        for (shards, anchors) in reached {
            do {
                try await self.anchors.advanceAnchors(of: shards, to: anchors)
            } catch {
                agent.logger.error("anchors not persisted; the batches will be evaluated again", metadata: ["error": "\(error)"])
            }
        }
        settleWorkInHand(agent)
    }

    /// While other nodes evaluate every patient: confirms the batches received without
    /// evaluating them (the nodes holding the shards' leases evaluate these samples, from
    /// the anchors this node did not move) and drops a due check (those nodes watch).
    func pass(from agent: Agent) async {
        (inHand, checkInHand) = await agent.takeAnomaliesWork()
        settleWorkInHand(agent)
    }

    private func settleWorkInHand(_ agent: Agent) {
        for received in inHand {
            agent.send(received.message.makeReply(.confirm, content: received.batch.id.uuidString))
            pending.done()
        }
        if checkInHand { pending.done() }
        inHand = []
        evaluatedShards = [:]
        checkInHand = false
    }

    private func inform(_ anomalies: [Anomaly], from agent: Agent) async {
        guard !anomalies.isEmpty else { return }
        guard let alertAgent = await agent.beliefs[.alertAgent] else {
            agent.logger.error("anomalies not sent: the AnomaliesAgent does not know the AlertAgent", metadata: ["count": "\(anomalies.count)"])
            return
        }
        for anomaly in anomalies {
            do {
                let message = try anomaly.inform(alertAgent)
                anomaliesInFlight.add()
                agent.send(message)
            } catch {
                agent.logger.error("anomaly not sent", metadata: ["patient": "\(anomaly.patient)", "error": "\(error)"])
            }
        }
    }

    private func publish(_ samples: [HealthSample], records: [PatientID: Patient], at now: Date) {
        for (patient, own) in Dictionary(grouping: samples, by: \.patient).sorted(by: { $0.key < $1.key }) {
            let sector = records[patient]?.sector
            events.publish(.samples(SamplesEvent(patient: patient, sector: sector, samples: own)))
            for sample in own.flatMap(\.flattened) where Self.isNEWS2Input(sample.type) {
                if let current = latest[patient]?[sample.type.identifier], current.end > sample.end { continue }
                latest[patient, default: [:]][sample.type.identifier] = sample
            }
            let scale2 = records[patient]?.usesSpO2Scale2 ?? false
            // As the detector scores: readings stamped a little ahead of this clock are current.
            let skew = detector.configuration.clockSkewTolerance
            guard
                let score = try? NEWS2Score(
                    latestOf: Array(latest[patient, default: [:]].values), at: now.addingTimeInterval(skew), window: news2Window + skew,
                    scale2: scale2),
                score.missing.count < NEWS2Parameter.allCases.count
            else { continue }
            let event = NEWS2Event(patient: patient, sector: sector, score: score, at: now)
            latestNEWS2[patient] = event
            events.publish(.news2(event))
        }
    }

    private static func isNEWS2Input(_ type: HealthType) -> Bool {
        switch type {
        case .quantity(let type): NEWS2Parameter.allCases.contains { $0.quantityType == type }
        case .category: true
        case .correlation, .electrocardiogram: false
        }
    }
}

extension Agent {
    /// The AnomaliesAgent takes the batches received and a due check, leaving none.
    func takeAnomaliesWork() -> (batches: [ReceivedBatch], checkDue: Bool) {
        (takeAll(.batchesReceived), takeFlag(.missingDataCheckDue))
    }
}

extension HealthSample {
    /// The sample itself, or a correlation's members.
    var flattened: [HealthSample] {
        if case .correlation(let members) = value { return members }
        return [self]
    }
}
