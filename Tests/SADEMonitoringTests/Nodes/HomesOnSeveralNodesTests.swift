import Foundation
import SADEHome
@testable import SADEMonitoring
import SADETestSupport
import SADETestTiming
import Testing

@Suite("Homes on several nodes sharing one PostgreSQL database", .serialized, .timeLimit(.minutes(3)), .timed)
struct HomesOnSeveralNodesTests {
    typealias Node = SeveralNodesTests.Node

    /// A kitchen with a smoke detector and a motion sensor.
    static let plan = FlatPlan(name: "Flat 9", carers: ["nurse1"], rooms: [
        RoomPlan(name: "Kitchen", type: .kitchen, polygon: [.init(x: 0, y: 0), .init(x: 3, y: 0), .init(x: 3, y: 3)], devices: [
            DevicePlan(name: "Smoke", kind: .smoke, position: .init(x: 1, y: 1)), DevicePlan(name: "Motion", kind: .motion, position: .init(x: 2, y: 1)),
        ]),
    ])

    /// The next event of `events` that `matches`, or `nil` when the stream ends.
    static func next(_ events: inout AsyncStream<HomeEvent>.Iterator, _ matches: (HomeEvent) -> Bool) async -> HomeEvent? {
        while let event = await events.next() { if matches(event) { return event } }
        return nil
    }

    @Test("""
        the home agents run on the node holding the singletons' lease: a flat made on the other node gets its agent there; a smoke detector \
        firing on the other node is raised by it, once; each node's bus sees the other's events
        """)
    func agentsOnTheEvaluatingNode() async throws {
        let url = try await PostgresTestServer.makeDatabase()
        let a = try await Node.start("node-a", on: url)
        let b = try await Node.start("node-b", on: url)
        #expect(a.system.runsSingletons && !b.system.runsSingletons)
        let flat = try await b.system.home.createFlat(Self.plan)
        await until { await a.system.home.agent(of: flat.id) != nil }
        #expect(await a.system.home.agent(of: flat.id) != nil, "the node running the singletons started the new flat's agent")
        #expect(await b.system.home.agent(of: flat.id) == nil, "the other runs none")

        var onA = a.system.home.events.subscribe(flats: nil).makeAsyncIterator()
        var onB = b.system.home.events.subscribe(flats: nil).makeAsyncIterator()
        let smoke = flat.devices[0]
        try await b.system.home.ingest([StateEvent(device: smoke.id, value: 1, time: b.system.now())], flat: flat.id)
        let relayed = await Self.next(&onA) { if case .stateChanged(_, let device, _, let new) = $0 { device.id == smoke.id && new.isOn } else { false } }
        #expect(relayed != nil, "node A's bus sees the detector node B took")
        let raised = await Self.next(&onB) { if case .message(let message) = $0 { message.device == smoke.id } else { false } }
        guard case .message(let message)? = raised else {
            Issue.record("node B's bus saw no message")
            return
        }
        #expect(message.key == HomeAgent.hazardKey(smoke.id) && message.severity == .alarm && message.title == "Smoke in the kitchen")
        #expect(try await b.system.homeStore.messages(flat: flat.id, states: nil, from: nil, to: nil).map(\.id) == [message.id], "one alarm")
        await b.system.shutdown()
        await a.system.shutdown()
    }

    @Test("the node running the singletons dies before a detector's news reaches it: the node that takes over raises the alarm as its agents start")
    func takeoverRaisesAStandingHazard() async throws {
        let url = try await PostgresTestServer.makeDatabase()
        let a = try await Node.start("node-a", on: url)
        let b = try await Node.start("node-b", on: url)
        let flat = try await a.system.home.createFlat(Self.plan)
        #expect(await a.system.home.agent(of: flat.id) != nil)
        await a.system.halt()  // A stops renewing and hearing the other nodes, as a dead node would
        let smoke = flat.devices[0]
        try await b.system.home.ingest([StateEvent(device: smoke.id, value: 1, time: b.system.now())], flat: flat.id)
        #expect(try await b.system.homeStore.messages(flat: flat.id, states: nil, from: nil, to: nil).isEmpty, "nobody heard it yet")

        b.clock.advance(by: .seconds(10))  // one lease period
        await b.system.renewLeases()
        #expect(b.system.runsSingletons)
        await until { await b.system.home.agent(of: flat.id) != nil }  // B's own renewal loop may be the one starting them
        #expect(await b.system.home.agent(of: flat.id) != nil, "the home agents moved with the evaluation")
        try await until { try await !b.system.homeStore.messages(flat: flat.id, states: [.open], from: nil, to: nil).isEmpty }
        let open = try await b.system.homeStore.messages(flat: flat.id, states: [.open], from: nil, to: nil)
        #expect(open.map(\.key) == [HomeAgent.hazardKey(smoke.id)])

        // Answered, even once confirmed, the detector that still fires is not news to the next node.
        #expect(try await b.system.home.standingHazards(in: flat).isEmpty)
        _ = try await b.system.home.confirm(message: open[0].id, by: "nurse1")
        await b.system.shutdown()
        let c = try await Node.start("node-c", on: url)
        #expect(c.system.runsSingletons, "B gave the lease up")
        #expect(try await c.system.home.standingHazards(in: flat).isEmpty)
        #expect(try await c.system.homeStore.messages(flat: flat.id, states: nil, from: nil, to: nil).count == 1)
        await c.system.shutdown()
        await a.system.shutdown()
    }
}
