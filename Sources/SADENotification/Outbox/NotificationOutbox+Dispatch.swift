import Foundation
import Metrics

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
                let due: [(key: DeliveryKey, notice: Notice)]
                var nextDue: Date?
                do {
                    (due, nextDue) = try await dueDeliveries()
                } catch {
                    if Task.isCancelled { break }  // stopping
                    logger.error("outbox database read failed", metadata: ["error": "\(error)"])
                    (due, nextDue) = ([], clock.now.addingTimeInterval(1))
                }
                if store.isShared {
                    let look = clock.now.addingTimeInterval(configuration.pollInterval.seconds)
                    nextDue = min(nextDue ?? look, look)
                }
                for (key, notification) in due {
                    inFlight.insert(key)
                    group.addTask { await self.attempt(key, notification) }
                }
                await waitForWork(until: nextDue)
            }
        }
    }

    /// Pending deliveries that are due and not being attempted (claimed from a shared
    /// store), and when the next is due.
    private func dueDeliveries() async throws -> ([(key: DeliveryKey, notice: Notice)], Date?) {
        let now = clock.now
        let claimed = try await store.claimDue(at: now, hold: configuration.hold, limit: Self.claimLimit, channels: channels.keys.sorted())
        var next = claimed.nextDue
        var due: [(key: DeliveryKey, notice: Notice)] = []
        for delivery in claimed.due where !inFlight.contains(delivery.key) {
            if let held = quarantine[delivery.key], held > now {
                next = min(next ?? held, held)
            } else {
                due.append(delivery)
            }
        }
        return (due, next)
    }

    /// The most deliveries a dispatcher takes from a shared store at a time.
    static let claimLimit = 100

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
            // Stopping: the attempt was cut short, not refused; it stays pending, free
            // for the next dispatcher at once.
            await Task { [store] in try? await store.release(key) }.value  // not cancelled with the attempt
            inFlight.remove(key)
            return
        }
        // The outcome is written even when the outbox is stopping: a delivery made and
        // not recorded would go out again.
        let recorded = await Task { await self.record(key, notification: notification.id, failure: failure) }.value
        if !recorded {
            quarantine[key] = clock.now.addingTimeInterval(configuration.initialBackoff.seconds)
        } else {
            quarantine[key] = nil
        }
        inFlight.remove(key)
        wake()
    }

    /// Writes the attempt and its consequence; `false` if the database refused.
    private func record(_ key: DeliveryKey, notification id: UUID, failure: (any Error)?) async -> Bool {
        let outcome = AttemptOutcome(
            key: key, notice: id, at: clock.now, error: failure.map { "\($0)" }, permanent: (failure as? ChannelError)?.isPermanent ?? false)
        let event: OutboxEvent
        do {
            // A service's Retry-After is honoured up to the longest backoff: a notice must not wait a day for one slow service.
            let asked = min((failure as? ChannelError)?.retryAfter?.seconds ?? 0, configuration.maximumBackoff.seconds)
            event = try await store.recordAttempt(outcome, maxAttempts: configuration.maxAttempts) { [configuration] attempts in
                outcome.at.addingTimeInterval(max(configuration.backoff(after: attempts), asked))
            }
        } catch {
            logger.error("outbox could not record an attempt", metadata: ["id": "\(id)", "error": "\(error)"])
            return false
        }
        count(event)
        switch event {
        case .dead(_, let channel, let error):
            logger.error("notification given up (dead letter)", metadata: ["id": "\(id)", "channel": "\(channel)", "error": "\(error)"])
        case .failed(_, let channel, let attempt, let error, _):
            logger.warning(
                "notification delivery failed; will retry",
                metadata: ["id": "\(id)", "channel": "\(channel)", "attempt": "\(attempt)", "error": "\(error)"])
        case .delivered: break
        }
        for observer in observers.values { observer.yield(event) }
        return true
    }

    /// Counts an attempt's outcome per channel: `sade_outbox_delivered_total`,
    /// `sade_outbox_retries_total` (failed, to be tried again) or
    /// `sade_outbox_dead_letters_total`.
    private func count(_ event: OutboxEvent) {
        let (label, channel) =
            switch event {
            case .delivered(_, let channel): ("sade_outbox_delivered_total", channel)
            case .failed(_, let channel, _, _, _): ("sade_outbox_retries_total", channel)
            case .dead(_, let channel, _): ("sade_outbox_dead_letters_total", channel)
            }
        Counter(label: label, dimensions: [("channel", channel)], factory: metrics).increment()
    }
}
