import Synchronization

/// The in-app channel: keeps recent notifications and pushes new ones to any number
/// of live subscribers (the dashboard's connections, tests), each filtered by recipient.
///
/// A subscriber that does not keep up loses its oldest unread notifications (each
/// subscriber has its own bounded buffer); it never slows the hub or the others.
public final class AppNotificationHub: NotificationChannel {
    /// `app`.
    public let name = "app"
    /// How many recent notifications are kept for ``recent(for:)``.
    public let retention: Int
    /// How many unread notifications a subscriber may have before the oldest go.
    public let subscriberBuffer: Int

    private struct Subscriber {
        let user: String?
        let continuation: AsyncStream<Notice>.Continuation
    }

    private struct State {
        var recent: [Notice] = []
        var subscribers: [Int: Subscriber] = [:]
        var nextID = 0
    }

    private let state = Mutex(State())

    /// Creates a hub.
    public init(retention: Int = 1000, subscriberBuffer: Int = 256) {
        self.retention = retention
        self.subscriberBuffer = subscriberBuffer
    }

    /// Notifications with app users as recipients.
    public func accepts(_ notification: Notice) -> Bool { !notification.users.isEmpty }

    /// Keeps the notification and hands it to every matching subscriber without waiting.
    public func deliver(_ notification: Notice) async throws {
        publish(notification)
    }

    /// Keeps the notification and hands it to every matching subscriber without waiting.
    public func publish(_ notification: Notice) {
        let receivers = state.withLock { state in
            state.recent.append(notification)
            if state.recent.count > retention { state.recent.removeFirst(state.recent.count - retention) }
            return state.subscribers.values.filter { $0.user.map(notification.users.contains) ?? true }
        }
        for receiver in receivers { receiver.continuation.yield(notification) }
    }

    /// New notifications for `user` (every notification when `nil`) from now on;
    /// `buffer` overrides ``subscriberBuffer`` for this subscriber.
    public func subscribe(for user: String? = nil, buffer: Int? = nil) -> AsyncStream<Notice> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: Notice.self, bufferingPolicy: .bufferingNewest(max(1, buffer ?? subscriberBuffer)))
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            state.subscribers[state.nextID] = Subscriber(user: user, continuation: continuation)
            return state.nextID
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// The kept notifications for `user` (all when `nil`), oldest first.
    public func recent(for user: String? = nil) -> [Notice] {
        state.withLock { state in
            state.recent.filter { notification in user.map(notification.users.contains) ?? true }
        }
    }

    /// How many subscribers are connected.
    public var subscriberCount: Int { state.withLock { $0.subscribers.count } }
}
