import Foundation
import Synchronization

/// Whether this node may do what one node at a time does, now: always on a node of its
/// own; on one of several sharing a database, only while its lease is surely still its
/// own (``NodeLeases``: open until a margin before the lease would run out unrenewed,
/// on this node's clock). The singletons' gate (the simulated monitors, the home
/// agents, the issue track's office) is one.
package final class LeaseGate: Sendable {
    private let clock: PipelineClock?
    /// Open until this date (`distantFuture`: for good).
    private let state: Mutex<Date?>

    /// A gate open for good (a node of its own).
    package init() {
        clock = nil
        state = Mutex(.distantFuture)
    }

    /// A closed gate, opened by a lease for a while on `clock`.
    package init(clock: PipelineClock) {
        self.clock = clock
        state = Mutex(nil)
    }

    /// Whether the node may now.
    package var isOpen: Bool {
        state.withLock { until in
            guard let until else { return false }
            return until == .distantFuture || (clock.map { $0.now < until } ?? true)
        }
    }

    /// Keeps the gate open until `date`: whether it was closed before.
    @discardableResult
    package func open(until date: Date) -> Bool {
        let wasOpen = isOpen
        state.withLock { $0 = date }
        return !wasOpen
    }

    /// Closes the gate: whether it was open.
    @discardableResult
    package func close() -> Bool {
        let wasOpen = isOpen
        state.withLock { $0 = nil }
        return wasOpen
    }
}
