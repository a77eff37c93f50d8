import Foundation
import HTTPTypes
import Synchronization

/// Slows password guessing against one account, from however many addresses: after
/// ``freeFailures`` failed logins in a row for a username, the next attempt must wait
/// — 1 s, then twice as long after each further failure, at most ``longestWait`` — and
/// one made sooner is refused with 429 and `Retry-After`, the right password included
/// (else the refusal itself would tell a guess from the password). A successful login
/// clears the count. Unknown usernames count the same, so the answers tell nothing of
/// which accounts exist. Kept per node, in memory: with several nodes behind a load
/// balancer, an attacker gets each node's allowance.
final class LoginBackOff: Sendable {
    /// Failures in a row allowed without waiting.
    static let freeFailures = 5
    /// The longest wait after a failure.
    static let longestWait: TimeInterval = 15 * 60
    /// Usernames remembered at most (the oldest failures are forgotten first).
    static let capacity = 10_000

    private struct Failures {
        var count: Int
        var last: Date
    }

    private let failures = Mutex<[String: Failures]>([:])
    private let now: @Sendable () -> Date

    /// A back-off on the clock `now`.
    init(now: @escaping @Sendable () -> Date) {
        self.now = now
    }

    /// Throws 429 with `Retry-After` while `username` must wait.
    func admit(_ username: String) throws {
        let key = username.lowercased(), time = now()
        let wait = failures.withLock { failures -> TimeInterval? in
            guard let known = failures[key], let pause = Self.pause(after: known.count) else { return nil }
            let left = known.last.addingTimeInterval(pause).timeIntervalSince(time)
            return left > 0 ? left : nil
        }
        guard let wait else { return }
        var error = APIError(
            .tooManyRequests, code: "too-many-requests", message: "too many failed logins for this account: wait and retry")
        error.headers[.retryAfter] = String(max(1, Int(wait.rounded(.up))))
        throw error
    }

    /// A login for `username` failed.
    func failed(_ username: String) {
        let key = username.lowercased(), time = now()
        failures.withLock { failures in
            if failures.count >= Self.capacity, failures[key] == nil,
                let oldest = failures.min(by: { $0.value.last < $1.value.last })?.key
            {
                failures[oldest] = nil
            }
            failures[key] = Failures(count: (failures[key]?.count ?? 0) + 1, last: time)
        }
    }

    /// A login for `username` succeeded: its count starts again.
    func succeeded(_ username: String) {
        failures.withLock { $0[username.lowercased()] = nil }
    }

    /// How long to wait after `count` failures in a row, if at all.
    static func pause(after count: Int) -> TimeInterval? {
        guard count >= freeFailures else { return nil }
        return min(longestWait, pow(2, Double(min(count - freeFailures, 20))))
    }
}
