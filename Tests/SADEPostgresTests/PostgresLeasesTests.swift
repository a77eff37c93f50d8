import Foundation
import SADEPostgres
import SADETestSupport
import SADETestTiming
import Testing

@Suite("PostgreSQL: leases and notifications between nodes", .timeLimit(.minutes(3)), .timed)
struct PostgresLeasesTests {
    /// Two nodes' pools on one fresh database, with its leases.
    static func nodes() async throws -> [(pool: PostgresPool, leases: PostgresLeases)] {
        let url = try await PostgresTestServer.makeDatabase()
        var nodes: [(PostgresPool, PostgresLeases)] = []
        for _ in 0..<2 {
            let pool = try await PostgresPool.connect(PostgresLocation(url: url), maximumConnections: 4, timeout: .seconds(30))
            nodes.append((pool, try await PostgresLeases(pool)))
        }
        return nodes
    }

    let t0 = Date(timeIntervalSinceReferenceDate: 800_000_000)

    @Test("twenty tries from two nodes at once for one free lease: exactly one wins")
    func race() async throws {
        let nodes = try await Self.nodes()
        let t0 = self.t0
        let winners = try await withThrowingTaskGroup(of: String?.self) { group in
            for attempt in 0..<20 {
                let node = nodes[attempt % 2]
                group.addTask {
                    let held = try await node.leases.acquire(["singleton"], for: "node-\(attempt)", lasting: .seconds(10), now: t0)
                    return held["singleton"] == nil ? nil : "node-\(attempt)"
                }
            }
            var winners: [String] = []
            for try await winner in group { if let winner { winners.append(winner) } }
            return winners
        }
        #expect(winners.count == 1)
        let current = try await nodes[1].leases.current(now: t0)
        #expect(current.map(\.holder) == winners)
        for node in nodes { await node.pool.close() }
    }

    @Test("a lease is its holder's until it runs out; renewing keeps it; after it runs out another node takes it with a higher fencing token")
    func expiry() async throws {
        let nodes = try await Self.nodes()
        let (a, b) = (nodes[0].leases, nodes[1].leases)
        let first = try await a.acquire(["patient-1"], for: "node-a", lasting: .seconds(10), now: t0)
        #expect(first == ["patient-1": 1])
        #expect(try await b.acquire(["patient-1"], for: "node-b", lasting: .seconds(10), now: t0.addingTimeInterval(5)).isEmpty)
        // Renewed at +8 s, it lasts until +18 s: node B still cannot take it at +15 s.
        #expect(try await a.acquire(["patient-1"], for: "node-a", lasting: .seconds(10), now: t0.addingTimeInterval(8)) == ["patient-1": 1])
        #expect(try await b.acquire(["patient-1"], for: "node-b", lasting: .seconds(10), now: t0.addingTimeInterval(15)).isEmpty)
        // Node A stops renewing (it died): at +18 s the lease is node B's.
        #expect(try await b.acquire(["patient-1"], for: "node-b", lasting: .seconds(10), now: t0.addingTimeInterval(18)) == ["patient-1": 2])
        #expect(try await a.acquire(["patient-1"], for: "node-a", lasting: .seconds(10), now: t0.addingTimeInterval(19)).isEmpty)
        let current = try await a.current(now: t0.addingTimeInterval(19))
        #expect(current == [.init(name: "patient-1", holder: "node-b", expiresAt: t0.addingTimeInterval(28), fencingToken: 2)])
        #expect(try await a.current(now: t0.addingTimeInterval(28)).isEmpty, "run out")
        for node in nodes { await node.pool.close() }
    }

    @Test("many at once: a node gets the free ones and none of another's; a released lease is free at once")
    func bulkAndRelease() async throws {
        let nodes = try await Self.nodes()
        let (a, b) = (nodes[0].leases, nodes[1].leases)
        let patients = (0..<20).map { "patient-\($0)" }
        #expect(Set(try await a.acquire(Array(patients[..<10]), for: "node-a", lasting: .seconds(10), now: t0).keys) == Set(patients[..<10]))
        #expect(Set(try await b.acquire(patients, for: "node-b", lasting: .seconds(10), now: t0).keys) == Set(patients[10...]))
        try await a.release(["patient-3", "patient-15"], by: "node-a")  // patient-15 is not A's: untouched
        // Free at once, and its next holder's fencing token is above every earlier one.
        #expect(try await b.acquire(["patient-3"], for: "node-b", lasting: .seconds(10), now: t0) == ["patient-3": 2])
        let holders = Dictionary(uniqueKeysWithValues: try await a.current(now: t0).map { ($0.name, $0.holder) })
        #expect(holders["patient-3"] == "node-b" && holders["patient-15"] == "node-b" && holders["patient-4"] == "node-a")
        #expect(holders.count == 20)
        for node in nodes { await node.pool.close() }
    }

    @Test("without a time given, the database's clock decides")
    func databaseClock() async throws {
        let nodes = try await Self.nodes()
        #expect(try await nodes[0].leases.acquire(["office"], for: "node-a", lasting: .seconds(60)) == ["office": 1])
        #expect(try await nodes[1].leases.acquire(["office"], for: "node-b", lasting: .seconds(60)).isEmpty)
        #expect(try await nodes[1].leases.current().map(\.holder) == ["node-a"])
        for node in nodes { await node.pool.close() }
    }

    @Test("a notification sent by one node reaches the listeners of every node, in order, quotes and all")
    func notifications() async throws {
        let nodes = try await Self.nodes()
        let heard = try await nodes[0].pool.listen("sade_events")
        let alsoHeard = try await nodes[1].pool.listen("sade_events")
        let payloads = ["one", #"{"type":"alert","patient":"p-'7'"}"#, "three"]
        for payload in payloads { try await nodes[1].pool.notify("sade_events", payload) }
        for stream in [heard, alsoHeard] {
            var received: [String] = []
            for try await payload in stream {
                received.append(payload)
                if received.count == payloads.count { break }
            }
            #expect(received == payloads)
        }
        for node in nodes { await node.pool.close() }
    }

    @Test("two nodes taking overlapping sets over and over, in opposite orders: no deadlock, and every lease has one holder")
    func overlappingSets() async throws {
        let nodes = try await Self.nodes()
        let names = (0..<40).map { "patient-\($0)" }
        let t0 = self.t0
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, node) in nodes.enumerated() {
                group.addTask {
                    for round in 0..<30 {
                        let order = index == 0 ? names : names.reversed()
                        _ = try await node.leases.acquire(order, for: "node-\(index)", lasting: .seconds(10), now: t0.addingTimeInterval(Double(round)))
                    }
                }
            }
            try await group.waitForAll()
        }
        let current = try await nodes[0].leases.current(now: t0.addingTimeInterval(30))
        #expect(current.count == names.count)
        #expect(Set(current.map(\.name)) == Set(names))
        for node in nodes { await node.pool.close() }
    }
}
