import Foundation
import Synchronization

/// Whether this node evaluates the samples now: always on a node of its own; on one of
/// several sharing a database, only while its evaluation lease is surely still its own
/// (``EvaluationLease``: open until a margin before the lease would run out unrenewed,
/// on this node's clock). The collector collects, the anomaly agent evaluates batches
/// and checks for silent devices only while the gate is open; ingest and the API work
/// either way.
package final class EvaluationGate: Sendable {
    private let clock: PipelineClock?
    /// Open until this date (`distantFuture`: for good); how many times it opened.
    private let state: Mutex<(until: Date?, openings: Int)>

    /// A gate open for good (a node of its own).
    package init() {
        clock = nil
        state = Mutex((.distantFuture, 1))
    }

    /// A closed gate, opened by a lease for a while on `clock`.
    package init(clock: PipelineClock) {
        self.clock = clock
        state = Mutex((nil, 0))
    }

    /// Whether the node evaluates now.
    package var isOpen: Bool {
        state.withLock { state in
            guard let until = state.until else { return false }
            return until == .distantFuture || (clock.map { $0.now < until } ?? true)
        }
    }

    /// How many times the gate opened: what this node read of the shared state before
    /// the last opening (anchors) is stale.
    package var openings: Int { state.withLock { $0.openings } }

    /// Keeps the gate open until `date`: whether it was closed before.
    @discardableResult
    package func open(until date: Date) -> Bool {
        let wasOpen = isOpen
        state.withLock { state in
            state.until = date
            if !wasOpen { state.openings += 1 }
        }
        return !wasOpen
    }

    /// Closes the gate: whether it was open.
    @discardableResult
    package func close() -> Bool {
        let wasOpen = isOpen
        state.withLock { $0.until = nil }
        return wasOpen
    }
}
