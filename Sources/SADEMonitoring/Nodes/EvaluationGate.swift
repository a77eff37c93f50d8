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
    /// Per shard, open until this date (`distantFuture`: for good) and the opening it
    /// was last opened in; how many times a shard opened.
    private let state: Mutex<(until: [Int: Date], openedIn: [Int: Int], openings: Int)>

    /// A gate open for good to every shard (a node of its own).
    package init() {
        clock = nil
        let shards = PatientShards.all.members
        state = Mutex((Dictionary(uniqueKeysWithValues: shards.map { ($0, .distantFuture) }), Dictionary(uniqueKeysWithValues: shards.map { ($0, 1) }), 1))
    }

    /// A closed gate, opened shard by shard by leases for a while on `clock`.
    package init(clock: PipelineClock) {
        self.clock = clock
        state = Mutex(([:], [:], 0))
    }

    /// The shards open now.
    package var shards: PatientShards { PatientShards(tenure.keys) }

    /// The shards open now, each with the opening it was opened in: a shard found again
    /// with the same opening was held all the while.
    package var tenure: [Int: Int] {
        let now = clock?.now
        return state.withLock { state in
            state.until.filter { _, until in until == .distantFuture || now.map { $0 < until } ?? true }
                .reduce(into: [:]) { tenure, open in tenure[open.key] = state.openedIn[open.key] }
        }
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
            if !opened.isEmpty { state.openings += 1 }
            for shard in shards.members { state.until[shard] = date }
            for shard in opened.members { state.openedIn[shard] = state.openings }
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

/// What an evaluating agent last saw of the ``EvaluationGate``: which patients' state it
/// keeps in memory (episodes, latest readings) is stale — theirs whose shard was given
/// up, or given up and taken back, since (another node evaluated them meanwhile).
struct HeldShards {
    private var seen: [Int: Int] = [:]

    /// The shards held all the while since the last look, when anything changed since;
    /// `nil` when nothing did.
    mutating func keptSinceLastLook(_ gate: EvaluationGate) -> PatientShards? {
        let now = gate.tenure
        guard now != seen else { return nil }
        defer { seen = now }
        return PatientShards(now.filter { seen[$0.key] == $0.value }.keys)
    }
}
