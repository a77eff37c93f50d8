import Foundation
import Logging
import SADECore
import SADEHealth
@testable import SADEMonitoring
import SADEPostgres
import SADETestSupport
import Synchronization
import SADETestTiming
import Testing

@Suite("Node leases: each node's share of the patients, the singletons", .serialized, .timeLimit(.minutes(2)), .timed)
struct NodeLeasesTests {
    /// One node's leases on its own manual clock, with work on the shards it gives up
    /// while `busy` says so.
    struct Node {
        let leases: NodeLeases
        let clock: ManualClock
        let working: Working

        /// Whether work on the shards it gives up goes on.
        final class Working: Sendable {
            let busy: Mutex<Bool>
            init(_ busy: Bool) { self.busy = Mutex(busy) }
        }

        static func start(_ name: String, on pool: PostgresPool, busy: Bool = false) async throws -> Node {
            let clock = ManualClock()
            let time = PipelineClock(clock: PlatformClock(clock), epoch: Date(timeIntervalSince1970: 1_800_000_000))
            let working = Working(busy)
            let leases = NodeLeases(
                leases: try await PostgresLeases(pool), node: name, period: .seconds(10), shards: EvaluationGate(clock: time),
                singletons: LeaseGate(clock: time), clock: time, logger: Logger(label: "test"), gained: { _ in },
                busy: { [working] _ in working.busy.withLock { $0 } }, singletonsOpened: {})
            return Node(leases: leases, clock: clock, working: working)
        }

        var shards: PatientShards { leases.shards.shards }
    }

    @Test("""
        a node gives its surplus up only once nothing of it is being evaluated, and nobody takes it meanwhile; work that never \\
        ends lets it run out unrenewed within one period
        """)
    func surplusGoesWhenItsWorkIsDone() async throws {
        let pool = try await PostgresPool.connect(PostgresLocation(url: PostgresTestServer.makeDatabase()), maximumConnections: 4, timeout: .seconds(30))
        let a = try await Node.start("node-a", on: pool, busy: true)
        let b = try await Node.start("node-b", on: pool)
        await a.leases.renew()
        #expect(a.shards == .all && a.leases.singletons.isOpen, "alone, node A holds every shard and the singletons")
        await b.leases.renew()
        #expect(b.shards.isEmpty && !b.leases.singletons.isOpen, "nothing free: node B only says it is there")
        await a.leases.renew()
        #expect(a.shards == PatientShards(0..<8), "two nodes: A closes its surplus at once")
        await a.leases.renew()
        await b.leases.renew()
        #expect(b.shards.isEmpty, "A still evaluates some of it: not given up, and not B's")
        a.working.busy.withLock { $0 = false }
        await a.leases.renew()
        await b.leases.renew()
        #expect(b.shards == PatientShards(8..<16) && a.shards == PatientShards(0..<8))

        // B joins again after dying: its shards come back to A when they run out; then C
        // joins while A's work never ends, and the surplus runs out to C unrenewed.
        for node in [a, b] { node.clock.advance(by: .seconds(10)) }
        await a.leases.renew()
        #expect(a.shards.isEmpty == false)
        a.clock.advance(by: .seconds(10))
        await a.leases.renew()
        #expect(a.shards == .all, "B stopped renewing: A takes its shards once they ran out")
        a.working.busy.withLock { $0 = true }
        let c = try await Node.start("node-c", on: pool)
        c.clock.advance(by: .seconds(20))
        await c.leases.renew()
        await a.leases.renew()  // closes 8…15
        #expect(a.shards == PatientShards(0..<8))
        a.clock.advance(by: .seconds(3))
        await a.leases.renew()  // busy: keeps them closed, unrenewed
        c.clock.advance(by: .seconds(3))
        await c.leases.renew()
        #expect(c.shards.isEmpty, "not run out yet")
        c.clock.advance(by: .seconds(8))
        await c.leases.renew()
        #expect(c.shards == PatientShards(8..<16), "run out unrenewed within one period of A's last renewal of them")
        await pool.close()
    }

    @Test("renewals that come together on two nodes take turns on each: no shard is ever open on both, and together they hold all")
    func renewalsTakeTurns() async throws {
        let pool = try await PostgresPool.connect(PostgresLocation(url: PostgresTestServer.makeDatabase()), maximumConnections: 8, timeout: .seconds(30))
        let a = try await Node.start("node-a", on: pool)
        let b = try await Node.start("node-b", on: pool)
        for _ in 0..<5 {
            await withTaskGroup(of: Void.self) { group in
                for node in [a, b, a, b, a, b] { group.addTask { await node.leases.renew() } }
            }
            #expect(Set(a.shards.members).isDisjoint(with: b.shards.members), "A \(a.shards), B \(b.shards)")
        }
        for node in [a, a, b, a, b] { await node.leases.renew() }  // settled: the shares converge
        #expect(a.shards.members.count == 8 && b.shards.members.count == 8 && a.shards.union(b.shards) == .all)
        await pool.close()
    }
}
