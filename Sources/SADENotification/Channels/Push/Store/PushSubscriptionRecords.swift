/// Where push subscriptions are kept (the outbox's database: SQLite, or PostgreSQL
/// shared by every node).
public protocol PushSubscriptionRecords: Sendable {
    /// Keeps `subscription`; one with the same endpoint is replaced (a browser that
    /// subscribes again, perhaps for another account, is one subscription).
    func save(_ subscription: WebPushSubscription) async throws
    /// The subscriptions of `account`, oldest first.
    func subscriptions(of account: String) async throws -> [WebPushSubscription]
    /// The subscription with `id`, if there is one.
    func subscription(id: String) async throws -> WebPushSubscription?
    /// Removes the subscription with `id`; returns whether there was one.
    @discardableResult
    func remove(id: String) async throws -> Bool
    /// Removes every subscription of `account` (deleted, renamed, given another role); returns how many.
    @discardableResult
    func removeAll(of account: String) async throws -> Int
}
