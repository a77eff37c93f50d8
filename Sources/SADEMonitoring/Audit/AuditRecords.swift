import Foundation

/// Where the audit trail is kept: `audit.sqlite` in the data directory on one machine,
/// PostgreSQL when several nodes share one trail. Entries are only ever added.
public protocol AuditRecords: Sendable {
    /// Chains `events` after the trail's last entry (``AuditChain/seal(_:after:)``) and
    /// stores them with the new head, in one transaction: appends from any number of
    /// nodes take turns, so the chain has one order.
    func append(_ events: [AuditEvent]) async throws(MonitoringError) -> [AuditEntry]
    /// The entries matching `query`, newest first.
    func entries(_ query: AuditQuery) async throws(MonitoringError) -> [AuditEntry]
    /// At most `limit` entries after sequence number `after`, oldest first (to verify the chain).
    func chain(after sequence: Int64, limit: Int) async throws(MonitoringError) -> [AuditEntry]
    /// The head as recorded apart from the entries.
    func head() async throws(MonitoringError) -> AuditHead
}
