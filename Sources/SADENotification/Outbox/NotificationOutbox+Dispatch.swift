import Foundation
import GRDB

/// The dispatcher: one loop per started outbox that attempts due deliveries, each in a
/// task of its own, and otherwise waits for news (a new notice, a finished attempt) or
/// for the next retry to fall due.
extension NotificationOutbox {
    /// Starts delivering, beginning with whatever a previous run left pending.
    public func start() {
        guard dispatcher == nil else { return }
        dispatcher = Task { await self.dispatch() }
    }

    /// Stops delivering; pending deliveries stay in the database for the next start.
    public func stop() async {
        dispatcher?.cancel()
        await dispatcher?.value
        dispatcher = nil
    }

    private func dispatch() async {
        await withDiscardingTaskGroup { group in
            while !Task.isCancelled {
                dispatchPasses += 1
                let due: [(DeliveryKey, Notice)]
                let nextDue: Date?
                do {
                    (due, nextDue) = try dueDeliveries()
                } catch {
                    logger.error("outbox database read failed", metadata: ["error": "\(error)"])
                    (due, nextDue) = ([], clock.now.addingTimeInterval(1))
                }
                for (key, notification) in due {
                    inFlight.insert(key)
                    group.addTask { await self.attempt(key, notification) }
                }
                await waitForWork(until: nextDue)
            }
        }
    }

    /// Pending deliveries that are due and not being attempted, and when the next is due.
    private func dueDeliveries() throws -> ([(DeliveryKey, Notice)], Date?) {
        let now = clock.now.timeIntervalSince1970
        return try database.writer.read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT d.notificationID, d.channel, d.nextAttemptAt, n.payload FROM delivery d
                JOIN notification n ON n.id = d.notificationID WHERE d.status = 'pending' ORDER BY d.nextAttemptAt
                """)
            var due: [(DeliveryKey, Notice)] = []
            var next: Double?
            for row in rows {
                let key = DeliveryKey(notificationID: row["notificationID"], channel: row["channel"])
                guard !inFlight.contains(key) else { continue }
                var at: Double = row["nextAttemptAt"]
                if let held = quarantine[key] { at = max(at, held.timeIntervalSince1970) }
                if at <= now {
                    let payload: String = row["payload"]
                    due.append((key, try Self.decoder.decode(Notice.self, from: Data(payload.utf8))))
                } else {
                    next = min(next ?? at, at)
                }
            }
            return (due, next.map { Date(timeIntervalSince1970: $0) })
        }
    }

    /// Sleeps until `date` (forever when `nil`), until something new arrives, or until
    /// the dispatcher is cancelled.
    private func waitForWork(until date: Date?) async {
        if wakeRequested {
            wakeRequested = false
            return
        }
        let timer = date.map { date in
            Task { [clock] in
                guard (try? await clock.sleep(until: date)) != nil else { return }
                self.wake()
            }
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if wakeRequested || Task.isCancelled {
                    continuation.resume()
                } else {
                    sleeper = continuation
                }
            }
        } onCancel: {
            Task { await self.wake() }
        }
        wakeRequested = false
        timer?.cancel()
    }

    /// Wakes the dispatcher, or makes its next wait return at once.
    func wake() {
        if let sleeper {
            self.sleeper = nil
            sleeper.resume()
        } else {
            wakeRequested = true
        }
    }

    /// One attempt on one channel, recorded whatever happens.
    private func attempt(_ key: DeliveryKey, _ notification: Notice) async {
        var failure: (any Error)?
        if let channel = channels[key.channel] {
            do {
                try await channel.deliver(notification)
            } catch {
                failure = error
            }
        } else {
            failure = ChannelError(channel: key.channel, reason: "no such channel is configured", isPermanent: false)
        }
        if Task.isCancelled && failure != nil {
            // Stopping: the attempt was cut short, not refused; it stays pending.
            inFlight.remove(key)
            return
        }
        if !record(key, notification: notification.id, failure: failure) {
            quarantine[key] = clock.now.addingTimeInterval(configuration.initialBackoff.seconds)
        } else {
            quarantine[key] = nil
        }
        inFlight.remove(key)
        wake()
    }

    /// Writes the attempt and its consequence; `false` if the database refused.
    private func record(_ key: DeliveryKey, notification id: UUID, failure: (any Error)?) -> Bool {
        let now = clock.now
        let permanent = (failure as? ChannelError)?.isPermanent ?? false
        let error = failure.map { "\($0)" }
        var event: OutboxEvent?
        do {
            try database.writer.write { db in
                try db.execute(
                    sql: "INSERT INTO attempt (notificationID, channel, at, succeeded, error) VALUES (?, ?, ?, ?, ?)",
                    arguments: [key.notificationID, key.channel, now.timeIntervalSince1970, failure == nil, error])
                let attempts = (try Int.fetchOne(
                    db, sql: "SELECT attempts FROM delivery WHERE notificationID = ? AND channel = ?",
                    arguments: [key.notificationID, key.channel]) ?? 0) + 1
                if failure == nil {
                    try db.execute(
                        sql: "UPDATE delivery SET status = 'delivered', attempts = ?, deliveredAt = ?, lastError = NULL WHERE notificationID = ? AND channel = ?",
                        arguments: [attempts, now.timeIntervalSince1970, key.notificationID, key.channel])
                    event = .delivered(id, channel: key.channel)
                } else if permanent || attempts >= configuration.maxAttempts {
                    try db.execute(
                        sql: "UPDATE delivery SET status = 'dead', attempts = ?, lastError = ? WHERE notificationID = ? AND channel = ?",
                        arguments: [attempts, error, key.notificationID, key.channel])
                    event = .dead(id, channel: key.channel, error: error ?? "")
                } else {
                    let retryAt = now.addingTimeInterval(configuration.backoff(after: attempts))
                    try db.execute(
                        sql: "UPDATE delivery SET attempts = ?, lastError = ?, nextAttemptAt = ? WHERE notificationID = ? AND channel = ?",
                        arguments: [attempts, error, retryAt.timeIntervalSince1970, key.notificationID, key.channel])
                    event = .failed(id, channel: key.channel, attempt: attempts, error: error ?? "", retryAt: retryAt)
                }
            }
        } catch {
            logger.error("outbox could not record an attempt", metadata: ["id": "\(id)", "error": "\(error)"])
            return false
        }
        switch event {
        case .dead(_, let channel, let error)?:
            logger.error("notification given up (dead letter)", metadata: ["id": "\(id)", "channel": "\(channel)", "error": "\(error)"])
        case .failed(_, let channel, let attempt, let error, _)?:
            logger.warning("notification delivery failed; will retry", metadata: ["id": "\(id)", "channel": "\(channel)", "attempt": "\(attempt)", "error": "\(error)"])
        default: break
        }
        if let event { for observer in observers.values { observer.yield(event) } }
        return true
    }
}
