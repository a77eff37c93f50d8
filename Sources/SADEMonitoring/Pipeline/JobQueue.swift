import Synchronization

/// Runs asynchronous jobs one after the other, in the order they were enqueued.
///
/// An agent's message handlers are synchronous; they enqueue the work a message asks
/// for (evaluate a batch, alert a team) here, so that batches are evaluated in the
/// order they arrived and two alerts never run their Contract Net at the same time.
final class JobQueue: Sendable {
    typealias Job = @Sendable () async -> Void

    private struct State {
        var pending: [Job] = []
        var running = false
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Adds a job; it runs after every job enqueued before it.
    func enqueue(_ job: @escaping Job) {
        let mustStart = state.withLock { state in
            state.pending.append(job)
            defer { state.running = true }
            return !state.running
        }
        if mustStart { Task { await self.drain() } }
    }

    /// Returns once no job is pending or running.
    func waitUntilIdle() async {
        await withCheckedContinuation { continuation in
            let idle = state.withLock { state in
                if !state.running { return true }
                state.idleWaiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }

    private func drain() async {
        while true {
            let next = state.withLock { state -> Job? in
                if state.pending.isEmpty {
                    state.running = false
                    return nil
                }
                return state.pending.removeFirst()
            }
            guard let next else { break }
            await next()
        }
        let waiters = state.withLock { state in
            defer { state.idleWaiters = [] }
            return state.running ? [] : state.idleWaiters
        }
        waiters.forEach { $0.resume() }
    }
}
