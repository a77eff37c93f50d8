import Foundation
import GRDB
import SADEHealth
import SADENotification
import Synchronization

/// The alerts the pipeline raised, as the API asks about them: lists by status and
/// patients, each health-care worker's open-alert load (what Contract-Net proposals
/// carry), and acknowledgement.
///
/// Alerts live in the monitoring database (`pipeline_alert`); their notices,
/// deliveries and escalation steps in the notification outbox, which ``AlertDesk``
/// escalates.
public final class AlertBook: Sendable {
    let database: any DatabaseWriter
    let outbox: NotificationOutbox
    let desk: AlertDesk
    let events: MonitoringEventHub
    /// Open alerts per assignee, kept in memory so that a Contract-Net bid reads its load
    /// without waiting.
    private let loads: Mutex<[StaffID: Int]>

    /// Opens the book on the monitoring database (migrated with ``PipelineMigrations``).
    ///
    /// - Parameters:
    ///   - outbox: the outbox `desk` sends through, where the escalation steps are.
    public init(database: MonitoringDatabase, outbox: NotificationOutbox, desk: AlertDesk, events: MonitoringEventHub) throws {
        self.database = database.writer
        self.outbox = outbox
        self.desk = desk
        self.events = events
        let counts = try self.database.read { db in
            try Row.fetchAll(db, sql: """
                SELECT assignee, COUNT(*) AS open FROM pipeline_alert
                WHERE acknowledgedAt IS NULL AND assignee IS NOT NULL GROUP BY assignee
                """)
        }
        loads = Mutex(Dictionary(uniqueKeysWithValues: counts.map { ($0["assignee"] as StaffID, $0["open"] as Int) }))
    }

    /// How many unacknowledged alerts `assignee` has.
    public func openAlertCount(assignee: StaffID) -> Int {
        loads.withLock { $0[assignee] ?? 0 }
    }

    /// The alerts with `status` about `patients` (every patient when `nil`), newest
    /// first, at most `limit`.
    public func alerts(status: AlertStatus = .all, patients: Set<PatientID>? = nil, limit: Int = 500) async throws(AlertBookError) -> [AlertRecord] {
        if let patients, patients.isEmpty { return [] }
        let state =
            switch status {
            case .open: "acknowledgedAt IS NULL"
            case .acknowledged: "acknowledgedAt IS NOT NULL"
            case .all: "1"
            }
        // `json_each` of NULL is empty: with no patient filter, every patient matches.
        let list = patients.map { String(decoding: (try? JSONEncoder().encode($0.map(\.rawValue).sorted())) ?? Data("[]".utf8), as: UTF8.self) }
        let limit = max(0, limit)
        let rows = try await read { db in
            try AlertRow.fetchAll(db, sql: """
                SELECT * FROM pipeline_alert WHERE \(state) AND (? IS NULL OR patient IN (SELECT value FROM json_each(?)))
                ORDER BY raisedAt DESC, rowid DESC LIMIT ?
                """, arguments: [list, list, limit])
        }
        var records: [AlertRecord] = []
        for row in rows { records.append(try await record(from: row)) }
        return records
    }

    /// The alert with this id, if any.
    public func alert(_ id: UUID) async throws(AlertBookError) -> AlertRecord? {
        guard let row = try await read({ db in
            try AlertRow.fetchAll(db, sql: "SELECT * FROM pipeline_alert WHERE id = ?", arguments: [id.uuidString]).first
        }) else { return nil }
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
            throw .storage("\(error)")
        }
        let by = acknowledgement?.worker ?? staff, at = acknowledgement?.at ?? outbox.clock.now
        let changed = try await write { db in
            try db.execute(
                sql: "UPDATE pipeline_alert SET acknowledgedBy = ?, acknowledgedAt = ? WHERE id = ? AND acknowledgedAt IS NULL",
                arguments: [by, at.timeIntervalSince1970, id.uuidString])
            return db.changesCount > 0
        }
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

    // MARK: Database access with typed errors

    func read<T: Sendable>(_ body: @Sendable @escaping (Database) throws -> T) async throws(AlertBookError) -> T {
        do {
            return try await database.read(body)
        } catch {
            throw .storage("\(error)")
        }
    }

    func write<T: Sendable>(_ body: @Sendable @escaping (Database) throws -> T) async throws(AlertBookError) -> T {
        do {
            return try await database.write(body)
        } catch {
            throw .storage("\(error)")
        }
    }

    func adjustLoad(of assignee: StaffID, by delta: Int) {
        loads.withLock { $0[assignee] = max(0, ($0[assignee] ?? 0) + delta) }
    }

    /// The record a row stands for, with the escalation steps the outbox took.
    func record(from row: AlertRow) async throws(AlertBookError) -> AlertRecord {
        var record = row.record
        do {
            record.escalations = try await outbox.escalations(of: record.id).map(AlertEscalation.init)
        } catch {
            throw .storage("\(error)")
        }
        return record
    }
}
