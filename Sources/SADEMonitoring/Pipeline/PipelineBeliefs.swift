import SADEACL
import SADECore
import SADEHealth

// The beliefs of the remote-monitoring agents (SADE4Health §5.3.2, step 4: the
// CollectorAgent knows the AnomaliesAgent, the AnomaliesAgent knows the AlertAgent),
// and the work each agent has been told of and not yet done: their goals keep it
// empty.

extension BeliefKey where Value == AgentIdentifier {
    /// Who the CollectorAgent tells of new samples.
    static let anomaliesAgent: BeliefKey<AgentIdentifier> = "anomaliesAgent"
    /// Who the AnomaliesAgent tells of anomalies.
    static let alertAgent: BeliefKey<AgentIdentifier> = "alertAgent"
}

extension BeliefKey where Value == Bool {
    /// The CollectorAgent: samples were accepted that no collection has read yet.
    static let newDataAnnounced: BeliefKey<Bool> = "newDataAnnounced"
    /// The AnomaliesAgent: it is time to look for admitted patients whose devices went silent.
    static let missingDataCheckDue: BeliefKey<Bool> = "missingDataCheckDue"
    /// The AlertAgent: an escalation step may be due or may have been taken.
    static let escalationsDue: BeliefKey<Bool> = "escalationsDue"
    /// The AlertAgent: alerts raised by a node that died before recording them are to be recorded.
    static let unrecordedAlertsDue: BeliefKey<Bool> = "unrecordedAlertsDue"
}

/// A batch the AnomaliesAgent received, with the message to confirm.
struct ReceivedBatch: Hashable, Sendable {
    let batch: SampleBatch
    let message: ACLMessage
}

extension BeliefKey where Value == [ReceivedBatch] {
    /// The AnomaliesAgent: batches received and not yet evaluated, in arrival order.
    static let batchesReceived: BeliefKey<[ReceivedBatch]> = "batchesReceived"
}

/// An anomaly the AlertAgent was told of.
struct ReceivedAnomaly: Hashable, Sendable {
    let anomaly: Anomaly
    /// Whether the pipeline's AnomaliesAgent sent it (and counts it in flight).
    let fromPipeline: Bool
}

extension BeliefKey where Value == [ReceivedAnomaly] {
    /// The AlertAgent: anomalies received and not yet attended to, in arrival order.
    static let anomaliesReceived: BeliefKey<[ReceivedAnomaly]> = "anomaliesReceived"
}

extension Agent {
    /// Appends `element` to the list belief `key`: one step of the agent's own, so no
    /// message is handled between the reading and the writing.
    func append<Element: Hashable & Sendable>(_ element: Element, to key: BeliefKey<[Element]>) {
        setBelief(key, to: (beliefs[key] ?? []) + [element])
    }

    /// Empties the list belief `key` and returns what it held.
    func takeAll<Element: Hashable & Sendable>(_ key: BeliefKey<[Element]>) -> [Element] {
        defer { setBelief(key, to: []) }
        return beliefs[key] ?? []
    }

    /// Sets the flag `key`. If it was clear, the work it stands for is new and is
    /// counted in `pending` first — before the belief change can start the intention
    /// that does the work and counts it done.
    func setFlag(_ key: BeliefKey<Bool>, counting pending: InFlightCounter? = nil) {
        guard beliefs[key] != true else { return }
        pending?.add()
        setBelief(key, to: true)
    }

    /// Clears the flag `key`; returns whether it was set.
    func takeFlag(_ key: BeliefKey<Bool>) -> Bool {
        guard beliefs[key] == true else { return false }
        setBelief(key, to: false)
        return true
    }
}
