import Foundation
import SADECore
import SADEHealth
import SADENotification

/// The AlertAgent's work: groups a patient's anomalies into episodes of one alert each,
/// and raises the alert when the first finding that pages arrives.
actor AlertDispatcher {
    let registry: any ClinicalRegistry
    let book: AlertBook
    let rules: AlertRules
    /// The patients this node evaluates: whose unrecorded alerts it adopts.
    let gate: EvaluationGate

    private struct EpisodeKey: Hashable {
        let patient: PatientID
        let category: AlertCategory
    }

    /// A patient's episode of one category: every detector episode still open in it,
    /// and its alert once raised. It ends when the last detector episode resolves.
    private struct Episode {
        let id = UUID()
        var detectorEpisodes: Set<UUID> = []
        var alert: UUID?
    }

    private var episodes: [EpisodeKey: Episode] = [:]
    /// The shards whose patients' episodes are known.
    private var held = HeldShards()

    init(registry: any ClinicalRegistry, book: AlertBook, rules: AlertRules, gate: EvaluationGate) {
        self.gate = gate
        self.registry = registry
        self.book = book
        self.rules = rules
    }

    /// Takes in one anomaly; raises an alert if it opens or worsens an episode without
    /// one and pages.
    func handle(_ anomaly: Anomaly, agent: Agent) async {
        if let kept = held.keptSinceLastLook(gate) {
            // Another node evaluated the others meanwhile: their episodes are in the book, not here.
            episodes = episodes.filter { kept.contains($0.key.patient) }
        }
        let key = EpisodeKey(patient: anomaly.patient, category: rules.category(of: anomaly))
        do {
            if anomaly.phase == .resolved {
                guard var episode = episodes[key], episode.detectorEpisodes.remove(anomaly.episode) != nil else { return }
                episodes[key] = episode.detectorEpisodes.isEmpty ? nil : episode
                if episode.detectorEpisodes.isEmpty, let alert = episode.alert { try await book.closeEpisode(of: alert) }
                return
            }
            var episode = episodes[key] ?? Episode()
            episode.detectorEpisodes.insert(anomaly.episode)
            episodes[key] = episode
            guard episode.alert == nil, rules.pages(anomaly) else { return }
            if anomaly.kind == .noData, try await registry.patient(anomaly.patient)?.sector == nil { return }  // not admitted
            // Independent reads go together (each a trip to the database when it is shared):
            // the episode's alert if another run raised it, the patient, the sectors.
            async let openAlert = book.openEpisodeAlert(of: key.patient, category: key.category)
            async let record = registry.patient(anomaly.patient)
            async let sectors = registry.sectors(of: nil)
            let (open, patient, allSectors) = try await (openAlert, record, sectors)
            if let open {
                episodes[key]?.alert = open
            } else {
                let deduplicationKey = "\(Self.keyPrefix)\(key.patient):\(key.category.rawValue):\(episode.id)"
                let sector = patient?.sector.flatMap { id in allSectors.first { $0.id == id } }
                episodes[key]?.alert = try await raise(
                    anomaly, patient: patient, sector: sector, category: key.category, deduplicationKey: deduplicationKey, agent: agent)
            }
        } catch {
            agent.logger.error("anomaly not handled", metadata: ["patient": "\(anomaly.patient)", "error": "\(error)"])
        }
    }

    /// Publishes escalation steps taken since the last look.
    func noticeEscalations(agent: Agent) async {
        do {
            // Alerts another node raised and can no longer escalate (it died) go on from here;
            // each step is taken once, whichever node's timer fires first.
            try await book.desk.resume()
            try await book.noticeEscalations()
            try await book.refreshLoads()  // other nodes raise and acknowledge alerts too
        } catch {
            agent.logger.warning("escalations not checked", metadata: ["error": "\(error)"])
        }
    }

    /// Finds the assignee by Contract Net, raises the alert through the desk with its
    /// escalation policy, records it. Returns the alert's id.
    private func raise(
        _ anomaly: Anomaly, patient: Patient?, sector: HospitalSector?, category: AlertCategory, deduplicationKey: String, agent: Agent
    ) async throws -> UUID {
        var assignee: StaffID?
        var doctors: [StaffID] = []
        if let sector {
            // The Contract Net while the sector's doctors are read.
            async let onDuty = sectorDoctors(sector)
            assignee = await assign(anomaly, sector: sector, agent: agent)
            doctors = try await onDuty
        }
        let mailingList = sector?.mailingList ?? []
        let policy: EscalationPolicy
        if let assignee {
            policy = EscalationPolicy([
                .init(after: .zero, notify: [.user(assignee)]),
                .init(after: rules.doctorAfter, notify: doctors.filter { $0 != assignee }.map(Recipient.user)),
                .init(after: rules.mailAfter, notify: mailingList.map(Recipient.email)),
            ])
        } else {
            policy = EscalationPolicy([
                .init(after: .zero, notify: mailingList.map(Recipient.email)),
                .init(after: rules.doctorAfter, notify: doctors.map(Recipient.user)),
            ])
            agent.logger.warning(
                "nobody on duty took the alert; the sector's list is e-mailed",
                metadata: ["patient": "\(anomaly.patient)", "sector": "\(sector?.id ?? "none")"])
        }
        let text = AlertText(anomaly, patient: patient, sector: sector)
        let notice = Notice(
            recipients: [], severity: anomaly.severity == .alarm ? .alarm : .warning, title: text.title, body: text.message,
            subject: anomaly.patient.rawValue, createdAt: book.outbox.clock.now, deduplicationKey: deduplicationKey)
        let raised = try await book.desk.raiseAlert(notice, policy: policy)
        let stored = raised.notice
        let steps = if let taken = raised.stepsTaken { taken } else { try await book.outbox.escalations(of: stored.id) }
        try await book.record(AlertRecord(
            id: stored.id, patient: anomaly.patient, sector: sector?.id, category: category, severity: stored.severity,
            title: stored.title, message: stored.body, raisedAt: stored.createdAt, assignee: assignee,
            escalations: steps.map(AlertEscalation.init)))
        return stored.id
    }

    /// The sector's doctors on duty, or all its doctors when none is.
    private func sectorDoctors(_ sector: HospitalSector) async throws -> [StaffID] {
        let doctors = try await registry.workers(in: sector.id).filter { $0.role == .doctor }
        let onDuty = doctors.filter(\.onDuty)
        return (onDuty.isEmpty ? doctors : onDuty).map(\.id).sorted()
    }
}

extension AlertDispatcher {
    /// The prefix of the deduplication keys of the pipeline's alerts:
    /// `monitoring:<patient>:<category>:<episode>`.
    static let keyPrefix = "monitoring:"

    /// Records in the book every unacknowledged alert of the pipeline that the outbox has
    /// and the book has not: a node that died between raising an alert (the outbox) and
    /// recording it (the book) left it so. Recorded, it is listed and acknowledged like any
    /// other, and the patient's episode joins it instead of raising a second one. Run
    /// when this node takes patients' evaluation over, before it evaluates them; only
    /// the alerts of patients it evaluates (another node may be recording its own).
    func adoptUnrecordedAlerts(agent: Agent) async {
        do {
            for notice in try await book.outbox.openAlerts() {
                guard let key = notice.deduplicationKey, key.hasPrefix(Self.keyPrefix) else { continue }
                let parts = key.dropFirst(Self.keyPrefix.count).split(separator: ":", omittingEmptySubsequences: false)
                guard parts.count >= 3, let category = AlertCategory(rawValue: String(parts[parts.count - 2])) else { continue }
                let patient = PatientID(rawValue: parts.dropLast(2).joined(separator: ":"))
                guard gate.owns(patient), try await book.alert(notice.id) == nil else { continue }
                let assignee = notice.recipients.lazy.compactMap { if case .user(let id) = $0 { id } else { nil } }.first
                let steps = try await book.outbox.escalations(of: notice.id)
                try await book.record(AlertRecord(
                    id: notice.id, patient: patient, sector: try await registry.patient(patient)?.sector, category: category,
                    severity: notice.severity, title: notice.title, message: notice.body, raisedAt: notice.createdAt, assignee: assignee,
                    escalations: steps.map(AlertEscalation.init)))
                agent.logger.warning(
                    "an alert raised by a node that died before recording it is recorded now",
                    metadata: ["alert": "\(notice.id)", "patient": "\(patient)"])
            }
        } catch {
            agent.logger.error("unrecorded alerts not looked for", metadata: ["error": "\(error)"])
        }
    }
}
