import Foundation
import SADEACL
import SADECore
import SADEHealth

/// The AnomaliesAgent's work on one batch or one missing-data check.
actor BatchEvaluator {
    let registry: any ClinicalRegistry
    let anchors: any PipelineRecords
    let events: MonitoringEventHub
    let detector: AnomalyDetector
    let clock: PipelineClock
    let alertAgent: AgentIdentifier
    /// Anomalies sent to the AlertAgent and not handled yet.
    let anomaliesInFlight: InFlightCounter
    /// How old a reading may be and still count for the NEWS2 published.
    let news2Window: TimeInterval
    /// Open while this node evaluates (always, on a node of its own).
    let gate: EvaluationGate
    /// The latest sample of each NEWS2 parameter per patient, for the scores published.
    private var latest: [PatientID: [String: HealthSample]] = [:]
    /// The NEWS2 last published per patient.
    private(set) var latestNEWS2: [PatientID: NEWS2Event] = [:]

    init(
        registry: any ClinicalRegistry, anchors: any PipelineRecords, events: MonitoringEventHub, detector: AnomalyDetector,
        clock: PipelineClock, alertAgent: AgentIdentifier, anomaliesInFlight: InFlightCounter, news2Window: TimeInterval,
        gate: EvaluationGate
    ) {
        self.gate = gate
        self.anomaliesInFlight = anomaliesInFlight
        self.news2Window = news2Window
        self.registry = registry
        self.anchors = anchors
        self.events = events
        self.detector = detector
        self.clock = clock
        self.alertAgent = alertAgent
    }

    /// Evaluates a batch, publishes its samples and the patients' NEWS2, informs the
    /// AlertAgent and persists the batch's anchors.
    func evaluate(_ batch: SampleBatch, from agent: Agent) async {
        // The lease was lost since the batch was read: the node that holds it now
        // evaluates these samples, from the anchors this node did not move.
        guard gate.isOpen else { return }
        let now = clock.now
        var records: [PatientID: Patient] = [:]
        for patient in Set(batch.samples.map(\.patient)) {
            do {
                records[patient] = try await registry.patient(patient)
            } catch {
                agent.logger.warning("patient record unavailable", metadata: ["patient": "\(patient)", "error": "\(error)"])
            }
        }
        let anomalies = await detector.evaluate(batch.samples, patients: records, at: now)
        publish(batch.samples, records: records, at: now)
        inform(anomalies, from: agent)
        do {
            try await anchors.advanceAnchors(to: batch.anchors)
        } catch {
            agent.logger.error("anchors not persisted; the batch will be evaluated again", metadata: ["error": "\(error)"])
        }
    }

    /// Watches every admitted patient and reports those without data for too long.
    func checkMissingData(from agent: Agent) async {
        guard gate.isOpen else { return }  // the evaluating node watches
        let now = clock.now
        var anomalies: [Anomaly] = []
        do {
            let admitted = try await registry.patients(in: nil).filter { $0.sector != nil }
            anomalies += await detector.evaluate([], patients: Dictionary(admitted.map { ($0.id, $0) }, uniquingKeysWith: { $1 }), at: now)
        } catch {
            agent.logger.warning("patients unavailable for the missing-data check", metadata: ["error": "\(error)"])
        }
        anomalies += await detector.checkForMissingData(at: now)
        inform(anomalies, from: agent)
    }

    private func inform(_ anomalies: [Anomaly], from agent: Agent) {
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

extension HealthSample {
    /// The sample itself, or a correlation's members.
    var flattened: [HealthSample] {
        if case .correlation(let members) = value { return members }
        return [self]
    }
}
