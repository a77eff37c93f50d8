import Synchronization

/// A clock that only moves when told to, for deterministic tests of cyclic actions,
/// tickers and timeouts.
///
/// Sleepers wake, in deadline order, when ``advance(by:)`` moves time past their
/// deadline. ``waitForSleepers(_:)`` lets a test wait until the code under test is
/// actually asleep before it advances time, so no tick is ever missed or raced.
public final class ManualClock: Clock, Sendable {
    /// A point in manual time: the offset from the clock's start.
    public struct Instant: InstantProtocol, Hashable, Sendable {
        /// Time since the clock's start.
        public var offset: Duration

        /// Creates an instant at `offset` from the clock's start.
        public init(offset: Duration) { self.offset = offset }

        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }

        /// The duration from this instant to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }

        /// Orders instants by offset.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let id: Int
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct Waiter {
        let id: Int
        let count: Int
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var nextID = 0
        var sleepers: [Sleeper] = []
        var waiters: [Waiter] = []

        /// Removes and returns the waiters satisfied by the current number of sleepers.
        mutating func satisfiedWaiters() -> [Waiter] {
            let ready = waiters.filter { $0.count <= sleepers.count }
            waiters.removeAll { $0.count <= sleepers.count }
            return ready
        }
    }

    private let state = Mutex(State())

    /// Creates a manual clock at time zero.
    public init() {}

    /// The current manual time.
    public var now: Instant { state.withLock { $0.now } }

    /// Manual time has no granularity.
    public var minimumResolution: Duration { .zero }

    /// The number of tasks currently asleep on this clock.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Suspends until time is advanced to `deadline`; returns at once if it has passed.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (immediate, waiters) = state.withLock { state -> (Result<Void, any Error>?, [Waiter]) in
                    if Task.isCancelled { return (.failure(CancellationError()), []) }
                    if deadline <= state.now { return (.success(()), []) }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return (nil, state.satisfiedWaiters())
                }
                waiters.forEach { $0.continuation.resume() }
                if let immediate { continuation.resume(with: immediate) }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward by `duration` and wakes every sleeper whose deadline has
    /// been reached, earliest first.
    public func advance(by duration: Duration) {
        let woken = state.withLock { state -> [Sleeper] in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        woken.forEach { $0.continuation.resume() }
    }

    /// Returns once at least `count` tasks are asleep on this clock, or when the
    /// calling task is cancelled.
    public func waitForSleepers(_ count: Int = 1) async {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state -> Bool in
                    if state.sleepers.count >= count || Task.isCancelled { return true }
                    state.waiters.append(Waiter(id: id, count: count, continuation: continuation))
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index)
            }
            waiter?.continuation.resume()
        }
    }
}
