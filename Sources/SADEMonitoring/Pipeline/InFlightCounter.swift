import Synchronization

/// Counts messages sent between two agents and not yet handled, so the pipeline can
/// wait until the receiver has caught up (``MonitoringPipeline/settle()``).
final class InFlightCounter: Sendable {
    private let state = Mutex<(count: Int, waiters: [CheckedContinuation<Void, Never>])>((0, []))

    /// `count` more messages are on their way.
    func add(_ count: Int = 1) {
        state.withLock { $0.count += count }
    }

    /// One message was handled (or could not be delivered).
    func done() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.count = max(0, state.count - 1)
            guard state.count == 0 else { return [] }
            defer { state.waiters = [] }
            return state.waiters
        }
        waiters.forEach { $0.resume() }
    }

    /// Whether nothing is on its way now.
    var isZero: Bool { state.withLock { $0.count == 0 } }

    /// Returns once nothing is on its way.
    func waitUntilZero() async {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state in
                if state.count == 0 { return true }
                state.waiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }
}
