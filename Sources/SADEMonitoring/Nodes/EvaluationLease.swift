import Foundation
import Logging
import SADECore
import SADEPostgres
import Synchronization

/// The lease in PostgreSQL that says which of several nodes evaluates the patients'
/// samples: the holder runs the collection, anomaly detection and alerting (its
/// ``EvaluationGate`` open); the others accept samples and serve the API. The holder
/// renews it every third of its ``period``; a node that dies stops renewing, and
/// within one period another takes it, reads the anchors the dead one reached and
/// evaluates what it had accepted and not evaluated.
///
/// The gate stays open only until a fifth of the period before the lease would run out
/// unrenewed, on this node's clock: a holder that cannot renew (the database
/// unreachable, a renewal stuck) stops evaluating before another node may take over,
/// provided the nodes' clocks differ by less than that margin (NTP keeps them within
/// milliseconds).
package final class EvaluationLease: Sendable {
    /// The lease's name in `sade_lease`.
    package static let name = "monitoring/evaluation"

    /// This node's name: the lease's holder when it holds it.
    package let node: String
    /// How long a lease lasts unrenewed.
    package let period: Duration
    let leases: PostgresLeases
    let gate: EvaluationGate
    let clock: PipelineClock
    let logger: Logger
    /// Called when the gate opens (collect at once).
    let opened: @Sendable () async -> Void
    /// Called when the gate closes after `opened` (the lease lost, or not renewed in time).
    let closed: @Sendable () async -> Void
    /// Whether `opened` was called and `closed` not since.
    private let announced = Mutex(false)
    private let state = Mutex<(expiresAt: Date?, fencing: Int64?)>((nil, nil))

    package init(
        leases: PostgresLeases, node: String, period: Duration, gate: EvaluationGate, clock: PipelineClock, logger: Logger,
        opened: @escaping @Sendable () async -> Void, closed: @escaping @Sendable () async -> Void = {}
    ) {
        self.leases = leases
        self.node = node
        self.period = period
        self.gate = gate
        self.clock = clock
        self.logger = logger
        self.opened = opened
        self.closed = closed
    }

    /// When this node's lease runs out unless renewed, and its fencing token, while it
    /// holds it.
    package var held: (expiresAt: Date, fencing: Int64)? {
        state.withLock { state in
            guard let expiresAt = state.expiresAt, let fencing = state.fencing else { return nil }
            return (expiresAt, fencing)
        }
    }

    /// Takes or renews the lease once; opens the gate until a margin (a fifth of the
    /// period, for the nodes' clocks to differ by) before the lease would run out
    /// unrenewed, counted from before the request; or closes it.
    package func renew() async {
        let now = clock.now
        let validUntil = now.addingTimeInterval(period.seconds * 0.8)
        do {
            let held = try await leases.acquire([Self.name], for: node, lasting: period, now: now)[Self.name]
            state.withLock { $0 = held == nil ? (nil, nil) : (now.addingTimeInterval(period.seconds), held) }
            if let held, !Task.isCancelled {  // a renewal finishing after halt or shutdown opens nothing
                // Opened and announced together: the watcher cannot announce a close in between.
                let opening = announced.withLock { announced in
                    guard gate.open(until: validUntil), gate.isOpen else { return false }  // not if already past its margin
                    announced = true
                    return true
                }
                if opening {
                    logger.info("this node evaluates the samples now", metadata: ["node": "\(node)", "fencing": "\(held)"])
                    await opened()
                }
            } else if held == nil, gate.close() {
                logger.warning("another node took the evaluation lease", metadata: ["node": "\(node)"])
            }
        } catch {
            // Unrenewed, the gate closes by itself before the lease may be another node's.
            logger.warning("the evaluation lease could not be renewed", metadata: ["error": "\(error)"])
        }
        await announceClosed()
    }

    /// Calls `closed` once after `opened` when the gate is shut (looked at and cleared
    /// together, as `renew` opens and announces together).
    private func announceClosed() async {
        let wasAnnounced = announced.withLock { announced in
            guard announced, !gate.isOpen else { return false }
            announced = false
            return true
        }
        if wasAnnounced { await closed() }
    }

    /// Renews every third of the period until cancelled, on the platform's clock; and
    /// every fifth, looks whether the gate closed by itself (a renewal stuck past its
    /// margin), to stop at once what runs only while it is open.
    package func run() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                while !Task.isCancelled {
                    await self.renew()
                    guard (try? await self.clock.clock.sleep(for: self.period / 3)) != nil else { return }
                }
            }
            group.addTask {
                while (try? await self.clock.clock.sleep(for: self.period / 5)) != nil { await self.announceClosed() }
            }
            await group.waitForAll()
        }
    }

    /// Gives the lease up (at shutdown), so another node takes over at once.
    package func release() async {
        gate.close()
        await announceClosed()
        state.withLock { $0 = (nil, nil) }
        do {
            try await leases.release([Self.name], by: node)
        } catch {
            logger.warning("the evaluation lease could not be released; it runs out unrenewed", metadata: ["error": "\(error)"])
        }
    }
}
