import Foundation
import PostgresNIO
import SADEHealth
import SADEPostgres
import Synchronization

/// Group commit for ``PostgresHealthStore/save(_:as:)``: saves that arrive while one is
/// being written wait, and the next transaction writes all of them together — one
/// read of the grants, one move of the change counter, one `COPY`, one `COMMIT` (and
/// its flush to disk) for all. Every commit holds the change counter's row lock, so
/// commits take turns on every node; one for many saves at once is what lets the
/// store take more than one save per disk flush. A save arriving when nothing is being
/// written goes out at once, alone.
///
/// Each save is still whole or not at all, and fails for its own reasons only: its
/// authorization is checked on its own before anything is written, and when a group's
/// transaction fails (a duplicate in one save, say) each of its saves is written again
/// in a transaction of its own, so the error goes to the save it belongs to (but the
/// database out of reach fails them all at once).
final class PostgresSaveQueue: Sendable {
    /// One save waiting to be written.
    private struct Save: Sendable {
        let samples: [HealthSample]
        let principal: Principal
        let done: CheckedContinuation<Result<[AccessGrant], HealthError>, Never>
    }

    /// The most samples one transaction writes for several saves (a larger save goes alone).
    static let groupLimit = 10_000

    private let database: PostgresPool
    /// Saves waiting, and whether a writer is at work (it takes them when it is done).
    private let state = Mutex<(waiting: [Save], writing: Bool)>(([], false))

    /// How many saves wait for the writer (tests make a group and watch it form).
    package var waitingCount: Int { state.withLock { $0.waiting.count } }
    /// How many transactions of saves were committed.
    package var transactions: Int { committed.withLock { $0 } }
    private let committed = Mutex(0)
    /// Whether a writer is at work.
    package var isWriting: Bool { state.withLock { $0.writing } }

    init(database: PostgresPool) {
        self.database = database
    }

    /// Writes `samples` (validated) for `principal`, with whatever else is waiting;
    /// returns the grants read in its transaction once committed.
    func write(_ samples: [HealthSample], as principal: Principal) async throws(HealthError) -> [AccessGrant] {
        let result = await withCheckedContinuation { (done: CheckedContinuation<Result<[AccessGrant], HealthError>, Never>) in
            let startWriter = state.withLock { state in
                state.waiting.append(Save(samples: samples, principal: principal, done: done))
                defer { state.writing = true }
                return !state.writing
            }
            if startWriter { Task { await self.writeWaiting() } }
        }
        return try result.get()
    }

    /// Writes groups of waiting saves until none waits.
    private func writeWaiting() async {
        while let group = nextGroup() {
            if group.count == 1 {
                await write(group[0])
            } else {
                await writeTogether(group)
            }
        }
    }

    /// The saves to write next, up to ``groupLimit`` samples (at least one); `nil` when
    /// none waits, and the writer stops.
    private func nextGroup() -> [Save]? {
        state.withLock { state in
            guard !state.waiting.isEmpty else {
                state.writing = false
                return nil
            }
            var count = 0
            var taken = 0
            for save in state.waiting {
                if taken > 0 && count + save.samples.count > Self.groupLimit { break }
                count += save.samples.count
                taken += 1
            }
            defer { state.waiting.removeFirst(taken) }
            return Array(state.waiting.prefix(taken))
        }
    }

    /// One save in a transaction of its own; the error when the database could not be reached.
    @discardableResult
    private func write(_ save: Save) async -> HealthError? {
        do {
            let grants = try await transaction { connection, database in
                let grants = try await PostgresGrantRows.fetch(of: nil, connection, database)
                try Self.authorize(save, grants: grants)
                try await Self.insert(save.samples, connection, database)
                return grants
            }
            committed.withLock { $0 += 1 }
            save.done.resume(returning: .success(grants))
            return nil
        } catch {
            save.done.resume(returning: .failure(error))
            return error.isUnavailableFailure ? error : nil
        }
    }

    /// Several saves in one transaction; those not authorized fail alone first. When
    /// the transaction fails, each save is written again alone.
    private func writeTogether(_ group: [Save]) async {
        let outcome: Result<(grants: [AccessGrant], written: [Save], refused: [(Save, HealthError)]), HealthError>
        do {
            outcome = .success(try await transaction { connection, database in
                let grants = try await PostgresGrantRows.fetch(of: nil, connection, database)
                var written: [Save] = [], refused: [(Save, HealthError)] = []
                for save in group {
                    do throws(HealthError) {
                        try Self.authorize(save, grants: grants)
                        written.append(save)
                    } catch {
                        refused.append((save, error))
                    }
                }
                try await Self.insert(written.flatMap(\.samples), connection, database)
                return (grants, written, refused)
            })
        } catch {
            outcome = .failure(error)
        }
        switch outcome {
        case .success(let outcome):
            committed.withLock { $0 += 1 }
            for save in outcome.written { save.done.resume(returning: .success(outcome.grants)) }
            for (save, error) in outcome.refused { save.done.resume(returning: .failure(error)) }
        case .failure(let error) where error.isUnavailableFailure:
            for save in group { save.done.resume(returning: .failure(error)) }  // fail fast, all alike
        case .failure:
            // Each for its own reasons; the database going away on the way fails the rest at once.
            for (index, save) in group.enumerated() {
                if let unavailable = await write(save) {
                    for rest in group[(index + 1)...] { rest.done.resume(returning: .failure(unavailable)) }
                    return
                }
            }
        }
    }

    private static func authorize(_ save: Save, grants: [AccessGrant]) throws(HealthError) {
        let policy = AccessPolicy(save.principal, grants: grants)
        for sample in save.samples {
            try policy.require(.share, sample.type, of: sample.patient)
        }
    }

    /// The samples' rows, numbered from the change counter (whose row stays locked until commit).
    private static func insert(_ samples: [HealthSample], _ connection: PostgresConnection, _ database: PostgresPool) async throws {
        guard !samples.isEmpty else { return }
        var rows = try PostgresSampleRows(samples)
        let last = try await connection.rows(
            "UPDATE change_counter SET last = last + \(Int64(rows.count)) WHERE id = 1 RETURNING last", database
        ).first?.decode(Int64.self) ?? 0
        rows.number(from: last - Int64(rows.count) + 1)
        try await rows.insert(connection, database)
    }

    private func transaction<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection, PostgresPool) async throws -> T
    ) async throws(HealthError) -> T {
        let database = self.database
        do {
            return try await database.transaction(.readCommitted) { connection in try await body(connection, database) }
        } catch {
            throw HealthError(postgres: error, while: "writing")
        }
    }
}

extension HealthError {
    /// Whether the database could not be reached (nothing to gain by trying again at once).
    fileprivate var isUnavailableFailure: Bool {
        if case .unavailable = self { true } else { false }
    }
}
