import NIOCore
import SADECore

/// Time-outs and shutdown of a link.
extension OutboundLink {
    func scheduleExpiryCheck(at deadline: NIODeadline) {
        eventLoop.scheduleTask(deadline: deadline) { self.expireOldMessages() }
    }

    /// Returns messages older than the delivery timeout to their senders.
    private func expireOldMessages() {
        let now = NIODeadline.now()
        let timeout = TimeAmount(configuration.deliveryTimeout)
        let (expired, next, rooms, drains) = state.withLock {
            state -> ([OutgoingMessage], NIODeadline?, [CheckedContinuation<Void, Never>], [CheckedContinuation<Void, Never>]) in
            var expired: [OutgoingMessage] = []
            while let first = state.unacknowledged.first, first.enqueuedAt + timeout <= now {
                expired.append(state.unacknowledged.removeFirst())
            }
            while let first = state.pending.first, first.enqueuedAt + timeout <= now {
                expired.append(state.pending.removeFirst())
            }
            let oldest = [state.unacknowledged.first?.enqueuedAt, state.pending.first?.enqueuedAt].compactMap { $0 }.min()
            state.isExpiryCheckScheduled = oldest != nil
            let (rooms, drains) = Self.takeWaiters(&state, capacity: configuration.queueCapacity)
            return (expired, oldest.map { $0 + timeout }, rooms, drains)
        }
        if let next { scheduleExpiryCheck(at: next) }
        for outgoing in expired {
            reportFailure(outgoing, .timedOut(outgoing.receiver, reason: "\(endpoint) did not take it within \(configuration.deliveryTimeout)"))
        }
        for waiter in rooms { waiter.resume() }
        for waiter in drains { waiter.resume() }
    }

    /// Waits until every queued message has been taken by the other platform (or given
    /// up on), then closes the connection; messages still queued after `timeout` are
    /// returned to their senders.
    func drainAndClose(timeout: Duration) async {
        let drained = state.withLock { $0.count == 0 }
        if !drained {
            let timer = eventLoop.scheduleTask(in: TimeAmount(timeout)) { self.giveUp(reason: "the transport shut down before delivery") }
            await withCheckedContinuation { continuation in
                let done = state.withLock { state in
                    guard state.count > 0 else { return true }
                    state.drainWaiters.append(continuation)
                    return false
                }
                if done { continuation.resume() }
            }
            timer.cancel()
        }
        let (channel, rooms): ((any Channel)?, [CheckedContinuation<Void, Never>]) = state.withLock { state in
            state.isClosed = true
            let (rooms, _) = Self.takeWaiters(&state, capacity: configuration.queueCapacity)
            if case .connected(let channel) = state.phase { return (channel, rooms) }
            return (nil, rooms)
        }
        for waiter in rooms { waiter.resume() }  // they find the link closed and give up
        try? await channel?.close()
    }

    private func giveUp(reason: String) {
        let (givenUp, rooms, drains) = state.withLock { state in
            state.isClosed = true
            let givenUp = Array(state.unacknowledged) + Array(state.pending)
            state.unacknowledged.removeAll()
            state.pending.removeAll()
            let (rooms, drains) = Self.takeWaiters(&state, capacity: configuration.queueCapacity)
            return (givenUp, rooms, drains)
        }
        for outgoing in givenUp { reportFailure(outgoing, .unreachable(outgoing.receiver, reason: reason)) }
        for waiter in rooms { waiter.resume() }
        for waiter in drains { waiter.resume() }
    }

    /// The senders waiting for room that may go on, and the drain waiters if empty.
}
