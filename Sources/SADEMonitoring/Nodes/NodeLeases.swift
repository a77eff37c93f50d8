import Foundation
import Logging
import SADECore
import SADEHealth
import SADEPostgres
import Synchronization

/// The leases in PostgreSQL by which several nodes share the work: each patient's
/// evaluation belongs to one node at a time through the lease on their shard
/// (``PatientShards``), and what runs on one node only (the simulated monitors, the
/// home agents, the issue track's office) to the holder of the singletons' lease.
///
/// Every node renews every third of the ``period``, in one statement: its own presence
/// (how the others count it), the singletons' lease if it is free or its own, and its
/// fair share of the shards — as many as `16 / nodes` rounded up — taking free ones
/// first. A node holding more than its share closes the surplus at once and gives it
/// up at a later renewal once nothing of it is being evaluated (no batch of those
/// shards unconfirmed, no anomaly on its way to the alert agent) — or lets it run out
/// unrenewed, within one period, if something always is; a node that
/// dies stops renewing, and within one period the others take its shards. The new
/// holder reads the shard's anchors and evaluates what the old one had accepted and
/// not evaluated.
///
/// Each gate stays open only until a fifth of the period before its lease would run out
/// unrenewed, on this node's clock: a holder that cannot renew (the database
/// unreachable, a renewal stuck) stops before another node may take over, provided
/// the nodes' clocks differ by less than that margin (NTP keeps them within
/// milliseconds).
package final class NodeLeases: Sendable {
    /// The singletons' lease in `sade_lease`.
    package static let singletonsName = "monitoring/singletons"
    /// The lease on the evaluation of a shard's patients.
    package static func shardName(_ shard: Int) -> String { shardPrefix + (shard < 10 ? "0" : "") + String(shard) }
    /// The shard a lease name names, if any.
    static func shard(named name: String) -> Int? {
        name.hasPrefix(shardPrefix) ? Int(name.dropFirst(shardPrefix.count)) : nil
    }
    /// What every shard's lease name begins with.
    static let shardPrefix = "monitoring/shard/"
    /// A node's presence, by which the others know how many share the work.
    static let presencePrefix = "monitoring/node/"

    /// This node's name: the leases' holder when it holds them.
    package let node: String
    /// How long a lease lasts unrenewed.
    package let period: Duration
    let leases: PostgresLeases
    /// The shards this node evaluates.
    let shards: EvaluationGate
    /// Whether this node runs the singletons.
    let singletons: LeaseGate
    let clock: PipelineClock
    let logger: Logger
    /// Called with the shards newly opened (take them over: collect at once).
    let gained: @Sendable (PatientShards) async -> Void
    /// Whether any of these shards' patients is being evaluated (then they are not given up yet).
    let busy: @Sendable (PatientShards) async -> Bool
    /// Called when the singletons' gate opens.
    let singletonsOpened: @Sendable () async -> Void
    /// Called when the singletons' gate closes after `singletonsOpened`.
    let singletonsClosed: @Sendable () async -> Void
    private let state = Mutex(State())
    /// One renewal at a time (the loop's, a test's): each reads and writes `leaving`.
    private let turns = Mutex<(taken: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    private struct State {
        /// The leases held after the last renewal, with when each runs out unrenewed.
        var held: [String: Date] = [:]
        /// Shards closed and not given up yet (still held until they run out).
        var leaving = PatientShards.empty
        /// Whether `singletonsOpened` was called and `singletonsClosed` not since.
        var singletonsAnnounced = false
    }

    package init(
        leases: PostgresLeases, node: String, period: Duration, shards: EvaluationGate, singletons: LeaseGate, clock: PipelineClock,
        logger: Logger, gained: @escaping @Sendable (PatientShards) async -> Void,
        busy: @escaping @Sendable (PatientShards) async -> Bool = { _ in false }, singletonsOpened: @escaping @Sendable () async -> Void, singletonsClosed: @escaping @Sendable () async -> Void = {}
    ) {
        self.leases = leases
        self.node = node
        self.period = period
        self.shards = shards
        self.singletons = singletons
        self.clock = clock
        self.logger = logger
        self.gained = gained
        self.busy = busy
        self.singletonsOpened = singletonsOpened
        self.singletonsClosed = singletonsClosed
    }

    /// The leases this node holds, by name, with when each runs out unless renewed.
    package var held: [String: Date] { state.withLock { $0.held } }

    /// How many shards each of `nodes` nodes holds at most: 16 / nodes, rounded up.
    static func fairShare(among nodes: Int) -> Int {
        (PatientShards.count + max(1, nodes) - 1) / max(1, nodes)
    }

    /// Renews this node's leases once and takes or gives up shards toward its fair
    /// share; opens the gates of what it holds until a margin (a fifth of the period)
    /// before the leases would run out unrenewed, counted from before the requests;
    /// closes the others.
    package func renew() async {
        await takeTurn()
        defer { endTurn() }
        let now = clock.now
        let validUntil = now.addingTimeInterval(period.seconds * 0.8)
        do {
            let current = try await leases.current(now: now)
            let others = Set(current.filter { $0.name.hasPrefix(Self.presencePrefix) && $0.holder != node }.map(\.holder))
            let fair = Self.fairShare(among: others.count + 1)
            var taken: Set<Int> = [], mine: Set<Int> = []
            for lease in current {
                guard let shard = Self.shard(named: lease.name) else { continue }
                if lease.holder == node { mine.insert(shard) } else { taken.insert(shard) }
            }
            // Closed before and still this node's until they run out (or are given up).
            let leaving = PatientShards(state.withLock { $0.leaving }.members.filter(mine.contains))
            var keep = PatientShards(mine).subtracting(leaving)
            let surplus = PatientShards(keep.members.dropFirst(fair))
            keep = keep.subtracting(surplus)
            let free = PatientShards.all.members.filter { !taken.contains($0) && !mine.contains($0) }
            let wanted = keep.union(PatientShards(free.prefix(max(0, fair - keep.members.count))))
            let names = [Self.presencePrefix + node, Self.singletonsName] + wanted.members.map(Self.shardName)
            let held = try await leases.acquire(names, for: node, lasting: period, now: now)
            guard !Task.isCancelled else { return }  // a renewal finishing after halt or shutdown opens nothing
            var stillLeaving = leaving
            if !leaving.isEmpty, await !busy(leaving) {
                try await leases.release(leaving.members.map(Self.shardName), by: node)
                stillLeaving = .empty
            }
            let expiry = now.addingTimeInterval(period.seconds)
            let heldShards = PatientShards(held.keys.compactMap(Self.shard(named:)))
            state.withLock { state in
                state.held = Dictionary(uniqueKeysWithValues: held.keys.map { ($0, expiry) })
                state.leaving = stillLeaving.union(surplus)
            }
            shards.close(PatientShards.all.subtracting(heldShards))
            // Not those already past their margin (a slow renewal): they stay closed.
            let opened = PatientShards(Set(shards.open(heldShards, until: validUntil).members).intersection(shards.shards.members))
            if !surplus.isEmpty {
                logger.info("giving shards up to the other nodes", metadata: ["node": "\(node)", "shards": "\(surplus)"])
            }
            if !opened.isEmpty {
                logger.info("this node evaluates more patients", metadata: ["node": "\(node)", "shards": "\(opened)", "fair share": "\(fair)"])
                await gained(opened)
            }
            if held[Self.singletonsName] != nil {
                // Opened and announced together: the watcher cannot announce a close in between.
                let opening = state.withLock { state in
                    guard singletons.open(until: validUntil), singletons.isOpen else { return false }  // not if already past its margin
                    state.singletonsAnnounced = true
                    return true
                }
                if opening {
                    logger.info("this node runs the singletons now", metadata: ["node": "\(node)"])
                    await singletonsOpened()
                }
            } else if singletons.close() {
                logger.warning("another node took the singletons' lease", metadata: ["node": "\(node)"])
            }
        } catch {
            // Unrenewed, the gates close by themselves before the leases may be another node's.
            logger.warning("the leases could not be renewed", metadata: ["error": "\(error)"])
        }
        await announceClosed()
    }

    /// Waits for the renewal under way, if any, to end.
    private func takeTurn() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = turns.withLock { turns in
                guard turns.taken else {
                    turns.taken = true
                    return true
                }
                turns.waiting.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Lets the next renewal waiting, if any, go on.
    private func endTurn() {
        let next = turns.withLock { turns -> CheckedContinuation<Void, Never>? in
            guard !turns.waiting.isEmpty else {
                turns.taken = false
                return nil
            }
            return turns.waiting.removeFirst()
        }
        next?.resume()
    }

    /// Calls `singletonsClosed` once after `singletonsOpened` when the gate is shut
    /// (looked at and cleared together, as `renew` opens and announces together).
    private func announceClosed() async {
        let wasAnnounced = state.withLock { state in
            guard state.singletonsAnnounced, !singletons.isOpen else { return false }
            state.singletonsAnnounced = false
            return true
        }
        if wasAnnounced { await singletonsClosed() }
    }

    /// Renews every third of the period until cancelled, on the platform's clock; and
    /// every fifth, looks whether the singletons' gate closed by itself (a renewal stuck
    /// past its margin), to stop at once what runs only while it is open.
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

    /// Closes the gates without giving the leases up, as a node that died would.
    package func halt() async {
        shards.close()
        singletons.close()
        await announceClosed()
    }

    /// Gives every lease up (at shutdown), so the other nodes take over at once.
    package func release() async {
        await halt()
        let names = state.withLock { state in
            defer { state.held = [:]; state.leaving = .empty }
            return Array(state.held.keys) + state.leaving.members.map(Self.shardName)
        }
        do {
            try await leases.release(names + [Self.presencePrefix + node], by: node)
        } catch {
            logger.warning("the leases could not be released; they run out unrenewed", metadata: ["error": "\(error)"])
        }
    }
}
