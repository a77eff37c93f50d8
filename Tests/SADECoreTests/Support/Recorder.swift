import Synchronization

/// A thread-safe list that actions, strategies and tests append to.
final class Recorder<Element: Sendable>: Sendable {
    private let items = Mutex<[Element]>([])

    init() {}

    func append(_ item: Element) { items.withLock { $0.append(item) } }

    var all: [Element] { items.withLock { $0 } }

    var count: Int { items.withLock { $0.count } }
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
