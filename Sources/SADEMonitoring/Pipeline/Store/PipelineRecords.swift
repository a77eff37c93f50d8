import Foundation
import SADEHealth
import SADENotification

/// The monitoring pipeline's durable state, the storage hot spot behind the collector's
/// anchors and the ``AlertBook``: one implementation in the monitoring database
/// (``SQLitePipelineRecords``, one node) and one in PostgreSQL
/// (``PostgresPipelineRecords``, shared by every node). Both pass the same suite.
package protocol PipelineRecords: Sendable {
    // MARK: Anchors

    /// How far the pipeline has evaluated the health store for the patients of each of
    /// `shards`, by sample type identifier: a type a shard never evaluated starts where
    /// the pipeline was before patients were sharded (its one anchor per type, if any);
    /// a type never evaluated is absent.
    func anchors(of shards: PatientShards) async throws(AlertBookError) -> [Int: [String: HealthAnchor]]
    /// Moves the anchors of `shards` forward (never back: batches may be confirmed late).
    func advanceAnchors(of shards: PatientShards, to anchors: [String: HealthAnchor]) async throws(AlertBookError)

    // MARK: Alerts

    /// Records a raised alert: `false` if one with its id is recorded already.
    func insert(_ alert: AlertRecord) async throws(AlertBookError) -> Bool
    /// The alert with this id.
    func alert(_ id: UUID) async throws(AlertBookError) -> AlertRow?
    /// The alerts with `status` about `patients` (all when `nil`), newest first, at most `limit`.
    func alerts(status: AlertStatus, patients: Set<PatientID>?, limit: Int) async throws(AlertBookError) -> [AlertRow]
    /// Unacknowledged alerts per patient (of `patients`, or all); patients without any are absent.
    func openAlertCounts(patients: Set<PatientID>?) async throws(AlertBookError) -> [PatientID: Int]
    /// Unacknowledged alerts per assignee; workers without any are absent.
    func openAlertLoads() async throws(AlertBookError) -> [StaffID: Int]
    /// Records the acknowledgement unless there is one: whether this one counted.
    func markAcknowledged(_ id: UUID, by staff: StaffID, at date: Date) async throws(AlertBookError) -> Bool
    /// The newest unacknowledged alert of `patient`'s open episode of `category`.
    func openEpisodeAlert(of patient: PatientID, category: AlertCategory) async throws(AlertBookError) -> UUID?
    /// Removes every alert of `patient` (their erasure); returns how many there were.
    func deleteAlerts(of patient: PatientID) async throws(AlertBookError) -> Int
    /// Marks the episode of an alert as over.
    func closeEpisode(of id: UUID) async throws(AlertBookError)
    /// Every unacknowledged alert, oldest first.
    func unacknowledged() async throws(AlertBookError) -> [AlertRow]
    /// Moves an alert's count of published escalation steps from `known` to `count`:
    /// `false` when another look (on this node or another) did first.
    func claimEscalationSteps(of id: UUID, from known: Int, to count: Int) async throws(AlertBookError) -> Bool
}

/// An alert as stored: the record without its escalation steps (those are in the
/// outbox), and how many of them were published as events.
package struct AlertRow: Sendable {
    package let record: AlertRecord
    package let escalationSteps: Int
}

/// How both stores name what they hold.
extension AlertRow {
    /// A stored alert's parts; a malformed id is ``AlertBookError/storage(_:)``, not a crash.
    init(
        id: String, patient: String, sector: String?, category: String, severity: String, title: String, message: String, raisedAt: Double,
        assignee: String?, acknowledgedBy: String?, acknowledgedAt: Double?, escalationSteps: Int
    ) throws(AlertBookError) {
        guard let id = UUID(uuidString: id) else { throw .storage("alert id '\(id.prefix(64))' is not a UUID") }
        record = AlertRecord(
            id: id, patient: PatientID(rawValue: patient), sector: sector, category: AlertCategory(rawValue: category) ?? .clinical,
            severity: NotificationSeverity(rawValue: severity) ?? .warning, title: title, message: message,
            raisedAt: Date(timeIntervalSince1970: raisedAt), assignee: assignee, acknowledgedBy: acknowledgedBy,
            acknowledgedAt: acknowledgedAt.map(Date.init(timeIntervalSince1970:)))
        self.escalationSteps = escalationSteps
    }
}
