import Foundation
import SADEHealth
@testable import SADEHealthPostgres
import SADEPostgres
import SADETestSupport
import SADETestTiming
import Testing

@Suite("Saves committed together on PostgreSQL", .timeLimit(.minutes(3)), .timed)
struct GroupCommitTests {
    @Test("""
        saves that wait while one is written go out in one transaction, each stored whole or refused for its own reason: \
        a duplicate, a principal without the grant, a UUID twice
        """)
    func groupedSavesFailAlone() async throws {
        let url = try await PostgresTestServer.makeDatabase()
        let pool = try await PostgresPool.connect(PostgresLocation(url: url), maximumConnections: 6, timeout: .seconds(30))
        let store = try await PostgresHealthStore(pool)
        let agent = Principal.agent("Collector")
        try await store.grant(AccessGrant(agent, .share, types: [.quantity(.heartRate)], patients: ["p-1"]))
        let stored = pulse(60, at: 0)
        try await store.save(stored, as: .system)

        // Another transaction holds the change counter: the first save waits on it, the others behind it.
        let (holder, release) = await holdChangeCounter(pool)

        let good: [[HealthSample]] = (1...20).map { (index: Int) -> [HealthSample] in
            (1...3).map { (minute: Int) -> HealthSample in pulse(Double(60 + index), at: Double(index * 10 + minute)) }
        }
        let duplicate = [pulse(99, at: 500), stored]
        let twice = pulse(98, at: 600)
        let outcomes = try await withThrowingTaskGroup(of: (String, HealthError?).self) { group in
            group.addTask { ("first", await healthError { try await store.save(pulse(59, at: 1), as: .system) }) }
            try await until { store.saves.waitingCount == 0 && store.saves.isWriting }
            for (index, samples) in good.enumerated() {
                group.addTask { ("good \(index)", await healthError { try await store.save(samples, as: index.isMultiple(of: 2) ? agent : .system) }) }
            }
            group.addTask { ("duplicate", await healthError { try await store.save(duplicate, as: .system) }) }
            group.addTask { ("unauthorized", await healthError { try await store.save([pulse(97, "p-2", at: 700)], as: agent) }) }
            group.addTask { ("twice", await healthError { try await store.save([twice, twice], as: .system) }) }
            try await until { store.saves.waitingCount == good.count + 3 }  // all queued behind the first
            release.yield()
            var outcomes: [String: HealthError?] = [:]
            for try await (name, error) in group { outcomes[name] = error }
            return outcomes
        }
        try await holder.value

        #expect(outcomes.count == good.count + 4)
        for name in ["first"] + good.indices.map({ "good \($0)" }) { #expect(outcomes[name] == .some(nil), "\(name): \(String(describing: outcomes[name]))") }
        #expect(outcomes["duplicate"] == .duplicate("sample \(stored.id.uuidString)"))
        #expect(outcomes["unauthorized"] == .notAuthorized(principal: agent, access: .share, type: "heartRate", patient: "p-2"))
        #expect(outcomes["twice"] == .duplicate("sample \(twice.id.uuidString)"))
        let all = Set(try await store.samples(SampleQuery(.quantity(.heartRate)), as: .system).map(\.id))
        #expect(Set(good.flatMap { $0 }.map(\.id)).isSubset(of: all) && all.contains(stored.id))
        #expect(!all.contains(duplicate[0].id) && !all.contains(twice.id), "refused saves leave nothing")
        #expect(all.count == 1 + 1 + good.count * 3, "the stored one, the first save's and the good saves'")
        #expect(try await store.rowCount("sample") == all.count)
        await pool.close()
    }

    @Test("twenty saves queued behind one are committed in one transaction, in the order they came")
    func oneTransactionForMany() async throws {
        let url = try await PostgresTestServer.makeDatabase()
        let pool = try await PostgresPool.connect(PostgresLocation(url: url), maximumConnections: 6, timeout: .seconds(30))
        let store = try await PostgresHealthStore(pool)
        let (holder, release) = await holdChangeCounter(pool)
        let before = store.saves.transactions
        let first = pulse(100, at: 100)
        let saves = (0..<20).map { index in [pulse(Double(60 + index), at: Double(index))] }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await store.save(first, as: .system) }
            try await until { store.saves.isWriting }
            for (index, samples) in saves.enumerated() {
                group.addTask { try await store.save(samples, as: .system) }
                try await until { store.saves.waitingCount == index + 1 }  // one at a time: queued in order
            }
            release.yield()
            try await group.waitForAll()
        }
        try await holder.value
        #expect(store.saves.transactions - before == 2, "the first save alone, then the twenty together")
        let changes = try await store.changes(.quantity(.heartRate), patient: nil, since: .start, limit: nil, as: .system)
        #expect(changes.added.map(\.id) == [first.id] + saves.flatMap { $0 }.map(\.id), "numbered in the order the saves came")
        await pool.close()
    }
}

/// Another transaction holding the change counter's row lock, as a save on another node
/// would, until `release` is yielded; returns once the lock is held.
private func holdChangeCounter(_ pool: PostgresPool) async -> (holder: Task<Void, any Error>, release: AsyncStream<Void>.Continuation) {
    let (released, release) = AsyncStream.makeStream(of: Void.self)
    let (lockTaken, locked) = AsyncStream.makeStream(of: Void.self)
    let holder = Task {
        try await pool.transaction { connection in
            try await connection.rows("SELECT last FROM change_counter WHERE id = 1 FOR UPDATE", pool)
            locked.yield()
            for await _ in released { break }
        }
    }
    for await _ in lockTaken { break }
    return (holder, release)
}

/// Waits until `condition` holds, yielding in between.
private func until(_ condition: () async throws -> Bool) async rethrows {
    while try await !condition(), !Task.isCancelled { await Task.yield() }
}
