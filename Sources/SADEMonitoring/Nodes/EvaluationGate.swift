import Synchronization

/// Whether this node evaluates the samples now: always on a node of its own; on one of
/// several sharing a database, only while it holds the evaluation lease
/// (``EvaluationLease``). The collector collects and the anomaly agent checks for
/// silent devices only while the gate is open; ingest and the API work either way.
package final class EvaluationGate: Sendable {
    private let state: Mutex<Bool>

    /// A gate, open or closed.
    package init(open: Bool) {
        state = Mutex(open)
    }

    /// Whether the node evaluates now.
    package var isOpen: Bool { state.withLock { $0 } }

    /// Opens or closes the gate: whether that changed it.
    @discardableResult
    package func set(open: Bool) -> Bool {
        state.withLock { current in
            defer { current = open }
            return current != open
        }
    }
}
