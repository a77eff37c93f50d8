import Foundation
import Metrics
import SADEACL
import SADECore
import SADEHealth
import Synchronization

/// The CollectorAgent's work: one collection at a time, coalescing requests that come
/// while one runs.
actor Collector {
    let store: any HealthStore
    let anchors: any PipelineRecords
    let sources: [any NewDataSource]
    let types: [HealthType]
    let batchLimit: Int
    let maxInFlight: Int
    /// The shards of patients this node evaluates (every one, on a node of its own).
    let gate: EvaluationGate
    /// Open while this node runs the pushing sources (always, on a node of its own).
    let sourcesGate: LeaseGate
    /// Since when samples wait that no collection has read.
    let unread: UnreadSince
    /// `sade_pipeline_lag_seconds`: from a sample's acceptance (the first wake after it,
    /// or the read that found it if no wake announced it) to its batch's evaluation.
    let lag: Metrics.Timer
    let clock: PlatformClock
    /// Since when the samples of each batch in flight had waited.
    private var waitingSince: [UUID: Duration] = [:]

    /// Where the next read starts, per shard and type; a shard is absent until its
    /// anchors are loaded from the database.
    private var readAnchors: [Int: [String: HealthAnchor]] = [:]
    /// The gate's opening each shard's `readAnchors` were loaded in: a shard opened again
    /// since (another node may have evaluated it meanwhile) is loaded again.
    private var loadedIn: [Int: Int] = [:]
    /// Raised whenever `readAnchors` are dropped (a batch failed): a read that was under
    /// way meanwhile keeps nothing of what it found.
    private var resets = 0
    /// The batches handed over and not confirmed, with their shards.
    private var inFlight: [UUID: PatientShards] = [:]
    private var flightWaiters: [CheckedContinuation<Void, Never>] = []
    private var requested = 0
    private var completed = 0
    private var running = false
    private var cycleWaiters: [(target: Int, continuation: CheckedContinuation<Void, Never>)] = []

    init(
        store: any HealthStore, anchors: any PipelineRecords, sources: [any NewDataSource], types: [HealthType], batchLimit: Int,
        maxInFlight: Int, gate: EvaluationGate, sourcesGate: LeaseGate, unread: UnreadSince, clock: PlatformClock
    ) {
        self.gate = gate
        self.sourcesGate = sourcesGate
        self.unread = unread
        self.clock = clock
        lag = Metrics.Timer(label: "sade_pipeline_lag_seconds", preferredDisplayUnit: .seconds)
        self.store = store
        self.anchors = anchors
        self.sources = sources
        self.types = types
        self.batchLimit = max(1, batchLimit)
        self.maxInFlight = max(1, maxInFlight)
    }

    /// Runs a collection that starts after this call, sharing it with concurrent
    /// callers; returns when it is done.
    func collect(from agent: Agent) async {
        requested += 1
        let target = requested
        if !running {
            running = true
            while completed < requested {
                let generation = requested
                await cycle(agent)
                completed = generation
                let done = cycleWaiters.filter { $0.target <= completed }
                cycleWaiters.removeAll { $0.target <= completed }
                done.forEach { $0.continuation.resume() }
            }
            running = false
        }
        guard completed < target else { return }
        await withCheckedContinuation { cycleWaiters.append((target, $0)) }
    }

    /// Takes a batch off the flight list: confirmed, or not delivered (then the store is
    /// read again from the persisted anchors, so nothing is skipped).
    func settle(_ batch: UUID, failed: Bool) {
        guard inFlight.removeValue(forKey: batch) != nil else { return }
        if failed {
            readAnchors = [:]
            resets += 1
        }
        if let since = waitingSince.removeValue(forKey: batch) {
            if failed { unread.restore(since) } else { lag.record(duration: clock.elapsed - since) }
        }
        if inFlight.isEmpty {
            flightWaiters.forEach { $0.resume() }
            flightWaiters = []
        }
    }

    /// Whether a batch of any of `shards`' patients is handed over and not confirmed.
    func hasInFlight(_ shards: PatientShards) -> Bool {
        inFlight.values.contains { !Set($0.members).isDisjoint(with: shards.members) }
    }

    func waitUntilNothingInFlight() async {
        guard !inFlight.isEmpty else { return }
        await withCheckedContinuation { flightWaiters.append($0) }
    }

    /// The batch id in a batch conversation's id.
    static func batchID(ofConversation id: String) -> UUID? {
        guard id.hasPrefix("batch-") else { return nil }
        return UUID(uuidString: String(id.dropFirst("batch-".count)))
    }

    private func cycle(_ agent: Agent) async {
        // The pushing sources (the demo's simulated monitors) run on one node at a time,
        // and on another when it takes over.
        if sourcesGate.isOpen { for source in sources { await pull(source, logger: agent) } }
        let tenure = gate.tenure
        let shards = PatientShards(tenure.keys)
        guard !shards.isEmpty else {
            // Other nodes evaluate, and move the anchors: read them again when this node's
            // turn comes. What was accepted meanwhile is their lag.
            readAnchors = [:]
            _ = unread.take()
            return
        }
        // A shard given up, or opened again since its anchors were loaded (another node
        // may have evaluated it meanwhile), is loaded again; the others read on.
        readAnchors = readAnchors.filter { shard, _ in tenure[shard] != nil && tenure[shard] == loadedIn[shard] }
        guard inFlight.count < maxInFlight else { return }
        guard let receiver = await agent.beliefs[.anomaliesAgent] else {
            agent.logger.error("the collector does not know whom to tell of new samples (no anomaliesAgent belief)")
            return
        }
        let since = unread.take()
        let unloaded = shards.subtracting(PatientShards(readAnchors.keys))
        if !unloaded.isEmpty {
            let generation = resets
            do {
                let loaded = try await anchors.anchors(of: unloaded)
                if resets == generation {
                    readAnchors.merge(loaded) { _, loaded in loaded }
                    for shard in loaded.keys { loadedIn[shard] = tenure[shard] }
                }
            } catch {
                agent.logger.error("collection failed", metadata: ["error": "\(error)"])
            }
        }
        // Shards read from the same anchors are read together: all of them once caught up
        // (one read), shards just taken over from an older position apart. The furthest
        // group is read first and the others no further than it reached, so that groups
        // that catch up end at the same anchors and are read as one from then on.
        let groups = Dictionary(grouping: shards.members.filter { readAnchors[$0] != nil }) { readAnchors[$0] ?? [:] }
        var allRead = groups.values.map(\.count).reduce(0, +) == shards.members.count  // every shard's anchors at hand
        var through: HealthAnchor?
        for (start, members) in groups.sorted(by: { Self.position($0.key) > Self.position($1.key) }) {
            guard inFlight.count < maxInFlight else {
                allRead = false
                break
            }
            let (read, reached) = await read(PatientShards(members), from: start, through: through, since: since, to: receiver, agent)
            if !read { allRead = false }
            through = through ?? reached
        }
        if !allRead, let since { unread.restore(since) }
    }

    /// How far anchors reach: the furthest of their types.
    private static func position(_ anchors: [String: HealthAnchor]) -> Int64 {
        anchors.values.map(\.rawValue).max() ?? 0
    }

    /// Reads the samples of `shards`' patients from `start` (no further than `through`)
    /// and hands them over as one batch: whether the samples waiting `since` were all
    /// read, and how far the read reached.
    private func read(
        _ shards: PatientShards, from start: [String: HealthAnchor], through: HealthAnchor?, since: Duration?, to receiver: AgentIdentifier,
        _ agent: Agent
    ) async -> (Bool, HealthAnchor?) {
        let generation = resets
        do {
            var next = start
            var samples: [HealthSample] = []
            let changes = try await store.changes(
                types, in: shards.isAll ? nil : shards, since: start, through: through, limit: batchLimit, as: .system)
            // A batch failed meanwhile: the anchors are read again, and so are these samples.
            guard resets == generation else { return (false, nil) }
            for type in types {
                guard let found = changes[type.identifier] else { continue }
                samples += found.added
                next[type.identifier] = found.anchor
            }
            for shard in shards.members { readAnchors[shard] = next }
            let more = changes.values.contains { $0.added.count >= batchLimit }  // those samples have waited as long
            guard !samples.isEmpty else {
                // Nothing new: the anchors may move on, unless batches of these shards still
                // fly (their samples lie below these anchors and are not evaluated yet).
                if !hasInFlight(shards), next != start { try await anchors.advanceAnchors(of: shards, to: next) }
                return (!more, HealthAnchor(rawValue: Self.position(next)))
            }
            // Samples no wake announced (saved by a source, or read just before their
            // wake) have waited at least since this read.
            let batch = SampleBatch(samples: samples.sorted { $0.start < $1.start }, anchors: next, shards: shards)
            inFlight[batch.id] = shards
            waitingSince[batch.id] = since ?? clock.elapsed
            agent.send(try batch.inform(receiver))
            return (!more, HealthAnchor(rawValue: Self.position(next)))
        } catch {
            for shard in shards.members { readAnchors[shard] = nil }
            agent.logger.error("collection failed", metadata: ["error": "\(error)", "shards": "\(shards)"])
            return (false, nil)
        }
    }

    /// Saves what a pushing source produced; a batch the store refuses is saved sample
    /// by sample, so one bad sample costs only itself.
    private func pull(_ source: any NewDataSource, logger agent: Agent) async {
        let samples: [HealthSample]
        do {
            samples = try await source.newSamples()
        } catch {
            agent.logger.error("a data source failed", metadata: ["source": "\(source.name)", "error": "\(error)"])
            return
        }
        guard !samples.isEmpty else { return }
        do {
            try await store.save(samples, as: .system)
        } catch {
            for sample in samples {
                do {
                    try await store.save(sample, as: .system)
                } catch {
                    agent.logger.warning(
                        "a sample was refused", metadata: ["source": "\(source.name)", "patient": "\(sample.patient)", "error": "\(error)"])
                }
            }
        }
    }
}

/// Since when accepted samples wait that no collection has read: the time of the first
/// wake after the last read, on the platform clock. Marked by whoever wakes the
/// collector, without waiting for it.
final class UnreadSince: Sendable {
    private let since = Mutex<Duration?>(nil)

    /// Samples were accepted now (kept only if none waited before).
    func mark(_ now: Duration) {
        since.withLock { if $0 == nil { $0 = now } }
    }

    /// A collection reads from here on: when the oldest unread samples came, if any.
    func take() -> Duration? {
        since.withLock { since in
            defer { since = nil }
            return since
        }
    }

    /// What was taken was not handed over after all (or only in part).
    func restore(_ time: Duration) {
        since.withLock { $0 = min($0 ?? time, time) }
    }
}
