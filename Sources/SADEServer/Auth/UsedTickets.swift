import Foundation
import Synchronization

/// The live-stream tickets this node has let in: each opens one stream. Kept until
/// they expire. (Another node sharing the secret keeps its own: a ticket stolen in the
/// seconds of its life could open one stream on each.)
final class UsedTickets: Sendable {
    private let used = Mutex<[String: Date]>([:])

    /// Takes the ticket `id`, good until `expiresAt`: `false` if it was taken before.
    func take(_ id: String, until expiresAt: Date, now: Date) -> Bool {
        used.withLock { used in
            if used.count > 1_000 { used = used.filter { $0.value > now } }
            guard used[id] == nil else { return false }
            used[id] = expiresAt
            return true
        }
    }
}
