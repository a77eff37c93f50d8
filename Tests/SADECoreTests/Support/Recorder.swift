import Synchronization

/// A thread-safe list that actions, strategies and tests append to; a test can await
/// what has not been appended yet.
final class Recorder<Element: Sendable>: Sendable {
    private struct State {
        var items: [Element] = []
        var waiters: [(id: Int, count: Int, continuation: CheckedContinuation<[Element], Never>)] = []
        var nextWaiter = 0
    }

    private let state = Mutex(State())

    init() {}

    func append(_ item: Element) {
        let ready = state.withLock { state -> [(CheckedContinuation<[Element], Never>, [Element])] in
            state.items.append(item)
            let items = state.items
            var ready: [(CheckedContinuation<[Element], Never>, [Element])] = []
            state.waiters.removeAll { waiter in
                guard items.count >= waiter.count else { return false }
                ready.append((waiter.continuation, items))
                return true
            }
            return ready
        }
        for (continuation, items) in ready { continuation.resume(returning: items) }
    }

    var all: [Element] { state.withLock { $0.items } }

    var count: Int { state.withLock { $0.items.count } }

    /// The items, once there are at least `count` (an agent's handler runs on its own
    /// time); fewer if the waiting task is cancelled first (a test past its time limit).
    func all(atLeast count: Int) async -> [Element] {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let items = state.withLock { state -> [Element]? in
                    if state.items.count >= count || Task.isCancelled { return state.items }
                    state.waiters.append((id, count, continuation))
                    return nil
                }
                if let items { continuation.resume(returning: items) }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                state.waiters.firstIndex { $0.id == id }.map { (state.waiters.remove(at: $0).continuation, state.items) }
            }
            if let (continuation, items) = waiter { continuation.resume(returning: items) }
        }
    }
}

/// A gate that tasks wait at until a test opens it.
final class Gate: Sendable {
    private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    init() {}

    /// Waits until the gate is open.
    func wait() async {
        await withCheckedContinuation { continuation in
            let passNow = state.withLock { state -> Bool in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if passNow { continuation.resume() }
        }
    }

    /// Opens the gate for every waiter, present and future.
    func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        waiters.forEach { $0.resume() }
    }
}
