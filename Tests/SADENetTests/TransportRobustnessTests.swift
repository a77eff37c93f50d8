import NIOCore
import SADEACL
import SADECore
import SADETestSupport
import SADETestTiming
import Testing

@testable import SADENet

@Suite("TCP transport under stress and bad input", .timeLimit(.minutes(3)), .timed)
struct TransportRobustnessTests {
    @Test("shutdown waits until queued messages are taken, over one reused connection")
    func shutdownDrainsQueue() async throws {
        let north = Environment(name: "north")
        var configuration = quickConfiguration
        // One connection is the point: on a loaded machine a connect slower than the quick 2 s would open a second.
        configuration.connectTimeout = .seconds(30)
        let northTCP = try await TCPTransport.start(for: north, configuration: configuration)
        let slow = try await RawPeer(acknowledging: false)
        var alice = try await Inbox("alice", on: north)
        let bob = AgentIdentifier(name: "bob", addresses: [slow.address])

        for number in 1...20 { alice.agent.send(ACLMessage(.inform, receivers: [bob], content: "\(number)")) }
        await slow.waitForMessages(20)
        // Read before the shutdown starts: it lets go of its links at once, and then counts none.
        #expect(northTCP.queuedCount(towards: slow.address) == 20, "nothing is taken before the peer acknowledges")
        let shutdown = Task { await northTCP.shutdown() }
        slow.startAcknowledging()
        await shutdown.value
        #expect(northTCP.queuedCount(towards: slow.address) == 0)
        #expect(slow.connectionCount == 1)
        alice.agent.send(ACLMessage(.inform, receivers: ["alice"], content: "marker"))
        #expect(await alice.next()?.content == "marker", "no failure came back before the marker")
        await slow.close()
    }

    @Test("shutdown gives up after the drain timeout and tells the senders")
    func shutdownReportsWhatItCouldNotDeliver() async throws {
        let north = Environment(name: "north")
        var configuration = quickConfiguration
        configuration.drainTimeout = .milliseconds(200)
        let northTCP = try await TCPTransport.start(for: north, configuration: configuration)
        let silent = try await RawPeer(acknowledging: false)
        var alice = try await Inbox("alice", on: north)

        for number in 1...3 {
            alice.agent.send(ACLMessage(.inform, receivers: [AgentIdentifier(name: "bob", addresses: [silent.address])], content: "\(number)"))
        }
        await silent.waitForMessages(3)
        await northTCP.shutdown()
        let failures = await alice.next(3)
        #expect(failures.map(\.performative) == [.failure, .failure, .failure])
        #expect(failures.allSatisfy { $0.userDefined["X-failure-reason"] == "unreachable" })
        #expect(failures.allSatisfy { $0.content?.contains("shut down before delivery") == true })
        await silent.close()
    }

    @Test("a platform that restarts on the same port gets the messages sent while it was down")
    func reconnectsAfterRestart() async throws {
        let north = Environment(name: "north"), south = Environment(name: "south")
        var configuration = quickConfiguration
        configuration.connectAttempts = 1000
        let northTCP = try await TCPTransport.start(for: north, configuration: configuration)
        var southTCP = try await TCPTransport.start(for: south, configuration: quickConfiguration)
        var bob = try await Inbox("bob", on: south)
        let alice = try await Inbox("alice", on: north)
        let bobThere = AgentIdentifier(name: "bob@south", addresses: southTCP.addresses)

        alice.agent.send(ACLMessage(.inform, receivers: [bobThere], content: "before"))
        #expect(await bob.next()?.content == "before")
        let port = southTCP.port
        await southTCP.shutdown()

        alice.agent.send(ACLMessage(.inform, receivers: [bobThere], content: "while down"))
        await northTCP.waitForFailedConnections(towards: bobThere.addresses[0], atLeast: 2)
        southTCP = try await TCPTransport.start(for: south, configuration: TCPTransport.Configuration(port: port))
        #expect(await bob.next()?.content == "while down")
        await northTCP.shutdown()
        await southTCP.shutdown()
    }

    @Test("an oversized or unknown frame closes that connection only; the platform goes on")
    func hostileFramesCloseTheConnection() async throws {
        let south = Environment(name: "south")
        let southTCP = try await TCPTransport.start(for: south, configuration: quickConfiguration)
        var bob = try await Inbox("bob", on: south)

        let huge = try await RawPeer.sendBytes([0x7F, 0xFF, 0xFF, 0xFF, 1, 0, 0], toPort: southTCP.port)
        try await huge.closeFuture.get()
        let unknownKind = try await RawPeer.sendBytes([0, 0, 0, 1, 9], toPort: southTCP.port)
        try await unknownKind.closeFuture.get()
        let empty = try await RawPeer.sendBytes([0, 0, 0, 0], toPort: southTCP.port)
        try await empty.closeFuture.get()

        let valid = RawPeer.messageFrame(to: "bob", payload: "(inform :content \"still here\")")
        let client = try await RawPeer.sendBytes(valid, toPort: southTCP.port)
        #expect(await bob.next()?.content == "still here")
        try await client.close()
        await southTCP.shutdown()
    }

    @Test("undecodable messages in well-formed frames are skipped; the connection and later messages survive")
    func garbagePayloadsAreSkipped() async throws {
        let south = Environment(name: "south")
        let southTCP = try await TCPTransport.start(for: south, configuration: quickConfiguration)
        var bob = try await Inbox("bob", on: south)

        var generator = SplitMix64(seed: 0x5ADE)
        var bytes: [UInt8] = []
        for index in 0..<200 {
            let junk = (0..<Int(generator.next() % 64)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let payload = index % 2 == 0 ? String(decoding: junk, as: UTF8.self) : "(inform :content \"cut"
            bytes += RawPeer.messageFrame(to: "bob", payload: payload)
        }
        bytes += RawPeer.messageFrame(to: "bob", payload: "(inform :content \"after the junk\")")
        let client = try await RawPeer.sendBytes(bytes, toPort: southTCP.port)
        let first = await bob.next()
        #expect(first?.content == "after the junk", "junk is dropped, not delivered")
        #expect(client.isActive)
        try await client.close()
        await southTCP.shutdown()
    }
}
