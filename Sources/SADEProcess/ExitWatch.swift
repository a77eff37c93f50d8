#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization

/// Waits for one child's end on a thread of its own (`waitpid` blocks).
final class ExitWatch: Sendable {
    private struct State {
        var status: Int32?
        var waiters: [CheckedContinuation<Int32, Never>] = []
    }

    private let state = Mutex(State())

    /// Watches `pid`; `ended` runs once it has ended.
    init(_ pid: pid_t, ended: @escaping @Sendable () -> Void) {
        Thread.detachNewThread { [self] in
            // Wait without reaping, then reap under the lock: while `whileRunning` holds
            // it, the pid cannot be freed and given to another process.
            var info = siginfo_t()
            while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
            let waiters = state.withLock { state in
                var raw: Int32 = 0
                var collected: pid_t
                repeat { collected = waitpid(pid, &raw, 0) } while collected < 0 && errno == EINTR
                // Exited: its code; killed: the signal's number (as Foundation's Process says);
                // not ours to wait for (it cannot be here): 255, not a false success.
                let signal = raw & 0x7f
                state.status = collected < 0 ? 255 : signal == 0 ? (raw >> 8) & 0xff : signal
                defer { state.waiters = [] }
                return state.waiters.map { ($0, state.status!) }
            }
            ended()
            for (waiter, status) in waiters { waiter.resume(returning: status) }
        }
    }

    var status: Int32? { state.withLock { $0.status } }

    /// Runs `body` while the child has not been reaped: its pid is still its own.
    func whileRunning(_ body: () -> Void) {
        state.withLock { state in if state.status == nil { body() } }
    }

    func ended() async -> Int32 {
        await withCheckedContinuation { continuation in
            let status = state.withLock { state -> Int32? in
                if let status = state.status { return status }
                state.waiters.append(continuation)
                return nil
            }
            if let status { continuation.resume(returning: status) }
        }
    }
}
