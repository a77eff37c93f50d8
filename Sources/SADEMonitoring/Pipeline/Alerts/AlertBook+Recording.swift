import Foundation
import SADEHealth

extension AlertBook {
    /// How many unacknowledged alerts each of `patients` has (every patient with one
    /// when `nil`); patients without any are absent.
    public func openAlertCounts(patients: Set<PatientID>? = nil) async throws(AlertBookError) -> [PatientID: Int] {
        try await records.openAlertCounts(patients: patients)
    }
}

/// The AlertAgent's side of the book: recording alerts, finding the open one of an
/// episode, noticing escalation steps.
extension AlertBook {
    /// Records a raised alert (nothing if it is recorded already) and publishes it as
    /// recorded: what was inserted is what a read would give back, without the trips.
    func record(_ alert: AlertRecord) async throws(AlertBookError) {
        let inserted = try await records.insert(alert)
        guard inserted else { return }
        if let assignee = alert.assignee { adjustLoad(of: assignee, by: 1) }
        var recorded = alert
        recorded.raisedAt = Date(timeIntervalSince1970: alert.raisedAt.timeIntervalSince1970)  // as the book keeps it
        events.publish(.alert(recorded))
    }

    /// The unacknowledged alert of `patient`'s open episode of `category`, if any: a
    /// new finding joins it instead of raising another (also after a restart).
    func openEpisodeAlert(of patient: PatientID, category: AlertCategory) async throws(AlertBookError) -> UUID? {
        try await records.openEpisodeAlert(of: patient, category: category)
    }

    /// Marks the episode of an alert as over: the next finding raises a new alert.
    func closeEpisode(of id: UUID) async throws(AlertBookError) {
        try await records.closeEpisode(of: id)
    }

    /// Publishes an ``MonitoringEvent/escalated(_:)`` event for every escalation step
    /// the outbox took since the last look, for unacknowledged alerts.
    func noticeEscalations() async throws(AlertBookError) {
        let rows = try await records.unacknowledged()
        for (row, record) in zip(rows, try await records(from: rows)) {  // one read of every alert's steps
            let known = row.escalationSteps
            guard record.escalations.count > known else { continue }
            let claimed = try await records.claimEscalationSteps(of: record.id, from: known, to: record.escalations.count)
            if claimed { events.publish(.escalated(record)) }
        }
    }
}
