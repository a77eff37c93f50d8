import Foundation
import Synchronization

/// The audit trail: who did what to whose data, in an append-only chain of entries
/// (``AuditChain``). ``record(_:)`` returns once the event is stored; events recorded
/// while a write is under way are stored together by the next one (a group commit), so
/// many requests at once cost few transactions.
public final class AuditTrail: Sendable {
    /// Where the entries are kept.
    public let records: any AuditRecords
    /// The most events written in one transaction.
    let batchLimit: Int
    private let state = Mutex(State())

    private struct State {
        var waiting: [(event: AuditEvent, done: CheckedContinuation<Void, any Error>)] = []
        var writing = false
    }

    /// A trail kept in `records`.
    public init(records: any AuditRecords, batchLimit: Int = 500) {
        self.records = records
        self.batchLimit = batchLimit
    }

    /// Stores `event` at the end of the trail, returning once it is stored.
    ///
    /// - Throws: ``MonitoringError`` when the trail cannot be written.
    public func record(_ event: AuditEvent) async throws(MonitoringError) {
        do {
            try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
                let startWriter = state.withLock { state in
                    state.waiting.append((event, done))
                    guard !state.writing else { return false }
                    state.writing = true
                    return true
                }
                if startWriter { Task { await self.writeWaiting() } }
            }
        } catch let error as MonitoringError {
            throw error
        } catch {
            throw .storage("the audit trail cannot be written: \(error)")
        }
    }

    /// Entries matching `query`, newest first.
    public func entries(_ query: AuditQuery) async throws(MonitoringError) -> [AuditEntry] {
        try await records.entries(query)
    }

    /// Checks the whole chain (see ``AuditChain/verify(_:pageSize:)``).
    public func verify() async throws(MonitoringError) -> AuditChain.Verification {
        try await AuditChain.verify(records)
    }

    /// Writes what is waiting, batch after batch, until nothing is.
    private func writeWaiting() async {
        while true {
            let batch = state.withLock { state in
                let batch = Array(state.waiting.prefix(batchLimit))
                state.waiting.removeFirst(batch.count)
                if batch.isEmpty { state.writing = false }
                return batch
            }
            if batch.isEmpty { return }
            do {
                _ = try await records.append(batch.map(\.event))
                for waiter in batch { waiter.done.resume() }
            } catch {
                for waiter in batch { waiter.done.resume(throwing: error) }
            }
        }
    }
}
