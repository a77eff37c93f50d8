import Foundation
import Synchronization

/// One-time credentials this node has let in — live-stream tickets, the buttons of push
/// notifications — each kept until it expires, so that it is good once. (Another node
/// sharing the secret keeps its own: a credential stolen within its life could be used
/// once on each; what it does is checked again there.)
public final class SpentTokens: Sendable {
    private let spent = Mutex<[String: Date]>([:])

    /// An empty record.
    public init() {}

    /// Whether the token `id` was spent.
    public func contains(_ id: String) -> Bool { spent.withLock { $0[id] != nil } }

    /// Spends the token `id`, good until `expiresAt`: `false` if it was spent before.
    public func take(_ id: String, until expiresAt: Date, now: Date) -> Bool {
        spent.withLock { spent in
            if spent.count > 1_000 { spent = spent.filter { $0.value > now } }
            guard spent[id] == nil else { return false }
            spent[id] = expiresAt
            return true
        }
    }
}
