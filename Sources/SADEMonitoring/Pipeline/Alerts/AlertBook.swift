import Foundation
import SADEHealth
import SADENotification
import Synchronization

/// The alerts the pipeline raised, as the API asks about them: lists by status and
/// patients, each health-care worker's open-alert load (what Contract-Net proposals
/// carry), and acknowledgement.
///
/// Alerts live in the monitoring database or in PostgreSQL (``PipelineRecords``); their notices,
/// deliveries and escalation steps in the notification outbox, which ``AlertDesk``
/// escalates.
public final class AlertBook: Sendable {
    let records: any PipelineRecords
    let outbox: NotificationOutbox
    let desk: AlertDesk
    let events: MonitoringEventHub
    /// Open alerts per assignee, kept in memory so that a Contract-Net bid reads its load
    /// without waiting; ``refreshLoads()`` reads them again (other nodes raise and
    /// acknowledge alerts too).
    private let loads = Mutex<[StaffID: Int]>([:])

    /// Opens the book on the monitoring database (migrated with ``PipelineMigrations``).
    ///
    /// - Parameters:
    ///   - outbox: the outbox `desk` sends through, where the escalation steps are.
    public convenience init(database: MonitoringDatabase, outbox: NotificationOutbox, desk: AlertDesk, events: MonitoringEventHub) {
        self.init(records: SQLitePipelineRecords(database), outbox: outbox, desk: desk, events: events)
    }

    /// Opens the book on `records`; the loads are read by ``refreshLoads()``.
    package init(records: any PipelineRecords, outbox: NotificationOutbox, desk: AlertDesk, events: MonitoringEventHub) {
        self.records = records
        self.outbox = outbox
        self.desk = desk
        self.events = events
    }

    /// Removes every alert of `patient` (their erasure; the outbox's notices go apart)
    /// and reads the workers' loads again; returns how many there were.
    public func erase(_ patient: PatientID) async throws(AlertBookError) -> Int {
        let removed = try await records.deleteAlerts(of: patient)
        try await refreshLoads()
        return removed
    }

    /// Reads every worker's open alerts from the database.
    public func refreshLoads() async throws(AlertBookError) {
        let counts = try await records.openAlertLoads()
        loads.withLock { $0 = counts }
    }

    /// How many unacknowledged alerts `assignee` has.
    public func openAlertCount(assignee: StaffID) -> Int {
        loads.withLock { $0[assignee] ?? 0 }
    }

    /// The alerts with `status` about `patients` (every patient when `nil`), newest
    /// first, at most `limit`.
    public func alerts(status: AlertStatus = .all, patients: Set<PatientID>? = nil, limit: Int = 500) async throws(AlertBookError) -> [AlertRecord] {
        if let patients, patients.isEmpty { return [] }
        return try await records(from: try await records.alerts(status: status, patients: patients, limit: limit))
    }

    /// The alert with this id, if any.
    public func alert(_ id: UUID) async throws(AlertBookError) -> AlertRecord? {
        guard let row = try await records.alert(id) else { return nil }
        return try await record(from: row)
    }

    /// Acknowledges an alert for `staff`: its escalation stops, the record shows who
    /// and when, and an ``MonitoringEvent/acknowledged(_:)`` event goes out. `id` may
    /// also be the notice of one of the alert's escalation steps (what a doctor got).
    ///
    /// - Throws: ``AlertBookError/unknownAlert(_:)``, ``AlertBookError/alreadyAcknowledged(_:)``
    ///   or ``AlertBookError/storage(_:)``.
    @discardableResult
    public func acknowledge(_ id: UUID, by staff: StaffID) async throws(AlertBookError) -> AlertRecord {
        var found = try await alert(id)
        if found == nil { found = try await alert(forNotice: id) }
        guard let current = found else { throw .unknownAlert(id) }
        guard current.isOpen else { throw .alreadyAcknowledged(current) }
        let id = current.id
        let first: Bool
        let acknowledgement: (worker: String, at: Date)?
        do {
            first = try await desk.acknowledge(id, by: staff)
            acknowledgement = try await outbox.acknowledgement(of: id)
        } catch {
            throw AlertBookError(outbox: error)
        }
        let by = acknowledgement?.worker ?? staff, at = acknowledgement?.at ?? outbox.clock.now
        let changed = try await records.markAcknowledged(id, by: by, at: at)
        if changed, let assignee = current.assignee { adjustLoad(of: assignee, by: -1) }
        guard let updated = try await alert(id) else { throw .unknownAlert(id) }
        guard first, changed else { throw .alreadyAcknowledged(updated) }
        events.publish(.acknowledged(updated))
        return updated
    }

    /// The open alert one of whose escalation notices has id `notice` (what an escalation
    /// step's recipients got), if any. Only open alerts are searched: they are few, and
    /// a notice matters until its alert is acknowledged.
    public func alert(forNotice notice: UUID) async throws(AlertBookError) -> AlertRecord? {
        try await alerts(status: .open, limit: .max).first { $0.escalations.contains { $0.notice == notice } }
    }

    func adjustLoad(of assignee: StaffID, by delta: Int) {
        loads.withLock { $0[assignee] = max(0, ($0[assignee] ?? 0) + delta) }
    }

    /// The record a row stands for, with the escalation steps the outbox took.
    func record(from row: AlertRow) async throws(AlertBookError) -> AlertRecord {
        try await records(from: [row])[0]
    }

    /// Stored alerts with their escalation steps, read in one go.
    func records(from rows: [AlertRow]) async throws(AlertBookError) -> [AlertRecord] {
        let escalations: [UUID: [EscalationRecord]]
        do {
            escalations = try await outbox.escalations(of: rows.map(\.record.id))
        } catch {
            throw AlertBookError(outbox: error)
        }
        return rows.map { row in
            var record = row.record
            record.escalations = (escalations[record.id] ?? []).map(AlertEscalation.init)
            return record
        }
    }
}
