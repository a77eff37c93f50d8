import Synchronization

/// Counts events down to zero and wakes the waiter then: how a suite learns that its
/// agents have finished the workload.
final class Countdown: Sendable {
    private struct State {
        var remaining: Int
        var waiter: CheckedContinuation<Void, Never>?
        var abortReason: String?
    }

    private let state: Mutex<State>

    /// A countdown from `count`; already finished for 0.
    init(_ count: Int) {
        state = Mutex(State(remaining: count))
    }

    /// Counts one event; the last one wakes the waiter.
    func tick() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.remaining -= 1
            guard state.remaining == 0 else { return nil }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Ends the wait at once: the workload went wrong (a delivery failure, say).
    func abort(_ reason: String) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.abortReason == nil { state.abortReason = reason }
            state.remaining = 0
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Returns once every event was counted; throws if the countdown was aborted.
    /// One waiter at a time.
    func wait() async throws(BenchError) {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state in
                if state.remaining <= 0 { return true }
                state.waiter = continuation
                return false
            }
            if done { continuation.resume() }
        }
        if let reason = state.withLock({ $0.abortReason }) { throw .unexpected(reason) }
    }
}

/// One conversation's bookkeeping in a ping-pong or ring: how many exchanges are
/// left and, when asked, the round-trip times. Touched only by the agent that owns
/// the conversation, so its lock is never contended.
final class ExchangeCounter: Sendable {
    private struct State {
        var remaining: Int
        var sentAt: ContinuousClock.Instant
        var latencies: [Double]
        let recordsLatency: Bool
    }

    private let state: Mutex<State>

    /// A counter for `count` exchanges, recording round trips if `recordsLatency`.
    init(_ count: Int, recordsLatency: Bool) {
        var latencies: [Double] = []
        if recordsLatency { latencies.reserveCapacity(count) }
        state = Mutex(State(remaining: count, sentAt: BenchClock.clock.now, latencies: latencies, recordsLatency: recordsLatency))
    }

    /// Notes that a request leaves now.
    func sending() {
        state.withLock { state in
            if state.recordsLatency { state.sentAt = BenchClock.clock.now }
        }
    }

    /// Notes that an answer arrived; returns whether more exchanges are due.
    func answered() -> Bool { answeredLeaving() > 0 }

    /// Notes that an answer arrived; returns how many answers are still due.
    func answeredLeaving() -> Int {
        state.withLock { state in
            if state.recordsLatency { state.latencies.append((BenchClock.clock.now - state.sentAt).microseconds) }
            state.remaining -= 1
            return state.remaining
        }
    }

    /// The round-trip times recorded, in microseconds.
    var latencies: [Double] { state.withLock { $0.latencies } }
}
