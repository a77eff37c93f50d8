import Foundation
import SADEHealth
import Synchronization

/// Which patients this node evaluates now, by ``PatientShards``: every one on a node of
/// its own; on one of several sharing a database, those of the shards whose leases are
/// surely still its own (``NodeLeases``: each open until a margin before its lease
/// would run out unrenewed, on this node's clock). The collector reads the samples of
/// these shards only; the anomaly agent evaluates and checks for silent devices while
/// any is open; ingest and the API work either way.
package final class EvaluationGate: Sendable {
    private let clock: PipelineClock?
    /// Per shard, open until this date (`distantFuture`: for good); how many times a
    /// shard opened.
    private let state: Mutex<(until: [Int: Date], openings: Int)>

    /// A gate open for good to every shard (a node of its own).
    package init() {
        clock = nil
        state = Mutex((Dictionary(uniqueKeysWithValues: PatientShards.all.members.map { ($0, .distantFuture) }), 1))
    }

    /// A closed gate, opened shard by shard by leases for a while on `clock`.
    package init(clock: PipelineClock) {
        self.clock = clock
        state = Mutex(([:], 0))
    }

    /// The shards open now.
    package var shards: PatientShards {
        let now = clock?.now
        let open = state.withLock { state in
            state.until.filter { _, until in until == .distantFuture || now.map { $0 < until } ?? true }.keys
        }
        return PatientShards(open)
    }

    /// Whether the node evaluates any patient now.
    package var isOpen: Bool { !shards.isEmpty }

    /// Whether the node evaluates `patient` now.
    package func owns(_ patient: PatientID) -> Bool { shards.contains(patient) }

    /// How many times a shard opened: what this node read of the shared state before
    /// the last opening (anchors) may be stale.
    package var openings: Int { state.withLock { $0.openings } }

    /// Keeps `shards` open until `date`: those that were closed before.
    @discardableResult
    package func open(_ shards: PatientShards, until date: Date) -> PatientShards {
        let opened = shards.subtracting(self.shards)
        state.withLock { state in
            for shard in shards.members { state.until[shard] = date }
            if !opened.isEmpty { state.openings += 1 }
        }
        return opened
    }

    /// Closes `shards` (every one by default): those that were open.
    @discardableResult
    package func close(_ shards: PatientShards = .all) -> PatientShards {
        let closed = PatientShards(Set(shards.members).intersection(self.shards.members))
        state.withLock { state in for shard in shards.members { state.until[shard] = nil } }
        return closed
    }
}
