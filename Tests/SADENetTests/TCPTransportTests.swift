import SADEACL
import SADECore
import SADETestTiming
import Testing

@testable import SADENet

/// Short back-offs and time-outs so that failures come back quickly.
let quickConfiguration = TCPTransport.Configuration(
    connectTimeout: .seconds(2), connectAttempts: 3, initialBackoff: .milliseconds(10),
    maximumBackoff: .milliseconds(50), deliveryTimeout: .seconds(20), drainTimeout: .seconds(10))

@Suite("TCP transport between platforms", .timeLimit(.minutes(3)), .timed)
struct TCPTransportTests {
    @Test("two platforms on loopback exchange messages both ways, replies find their way back")
    func twoPlatformsBothWays() async throws {
        let north = Environment(name: "north"), south = Environment(name: "south")
        let northTCP = try await TCPTransport.start(for: north, configuration: quickConfiguration)
        let southTCP = try await TCPTransport.start(for: south, configuration: quickConfiguration)
        var alice = try await Inbox("alice", on: north)
        var echo = try await Inbox("echo", on: south, echo: true)

        let echoThere = AgentIdentifier(name: "echo@south", addresses: southTCP.addresses)
        for number in 1...50 {
            alice.agent.send(ACLMessage(.request, receivers: [echoThere], content: "(ping \(number))", conversationID: "c\(number)"))
        }
        let requests = await echo.next(50)
        #expect(requests.map(\.content) == (1...50).map { "(ping \($0))" })
        #expect(requests.first?.sender == AgentIdentifier(name: "alice@north", addresses: northTCP.addresses))
        let replies = await alice.next(50)
        #expect(replies.map(\.performative) == Array(repeating: .inform, count: 50))
        #expect(replies.map(\.conversationID) == (1...50).map { "c\($0)" })
        #expect(replies.first?.sender?.name == "echo@south")

        await northTCP.shutdown()
        await southTCP.shutdown()
    }

    @Test("a message to an agent the other platform does not know comes back as failure unknown-agent")
    func unknownRemoteAgent() async throws {
        let north = Environment(name: "north"), south = Environment(name: "south")
        let northTCP = try await TCPTransport.start(for: north, configuration: quickConfiguration)
        let southTCP = try await TCPTransport.start(for: south, configuration: quickConfiguration)
        var alice = try await Inbox("alice", on: north)

        let ghost = AgentIdentifier(name: "ghost@south", addresses: southTCP.addresses)
        alice.agent.send(ACLMessage(.request, receivers: [ghost], content: "(hello)", conversationID: "g1", replyWith: "r1"))
        let failure = try #require(await alice.next())
        #expect(failure.performative == .failure)
        #expect(failure.sender?.name == "ams@south")
        #expect(failure.userDefined["X-failure-reason"] == "unknown-agent")
        #expect(failure.conversationID == "g1")
        #expect(failure.inReplyTo == "r1")

        await northTCP.shutdown()
        await southTCP.shutdown()
    }

    @Test("a platform nobody listens for is reported unreachable after the retries")
    func unreachablePlatform() async throws {
        let north = Environment(name: "north")
        let northTCP = try await TCPTransport.start(for: north, configuration: quickConfiguration)
        let closed = try await RawPeer(acknowledging: true)
        let address = closed.address
        await closed.close()
        var alice = try await Inbox("alice", on: north)

        alice.agent.send(ACLMessage(.inform, receivers: [AgentIdentifier(name: "bob", addresses: [address])], content: "x"))
        let failure = try #require(await alice.next())
        #expect(failure.performative == .failure)
        #expect(failure.userDefined["X-failure-reason"] == "unreachable")
        #expect(failure.userDefined["X-undelivered-to"] == "bob")
        #expect(northTCP.queuedCount(towards: address) == 0)
        await northTCP.shutdown()
    }

    @Test("a platform that takes the connection but never the messages: failure timeout")
    func deliveryTimeout() async throws {
        let north = Environment(name: "north")
        var configuration = quickConfiguration
        // Long enough for the connection to be up first even on a loaded machine; the
        // failure comes back in any case, so the test waits for it and never for the peer.
        configuration.deliveryTimeout = .seconds(2)
        let northTCP = try await TCPTransport.start(for: north, configuration: configuration)
        let silent = try await RawPeer(acknowledging: false)
        var alice = try await Inbox("alice", on: north)

        alice.agent.send(ACLMessage(.inform, receivers: [AgentIdentifier(name: "bob", addresses: [silent.address])], content: "x"))
        let failure = try #require(await alice.next())
        #expect(failure.userDefined["X-failure-reason"] == "timeout")
        #expect(silent.received.count == 1, "the peer took the message and never acknowledged it")
        await silent.close()
        await northTCP.shutdown()
    }

    @Test("a full queue pushes back: send gets queue-full, sendWhenReady waits, nothing is lost")
    func backpressure() async throws {
        let north = Environment(name: "north")
        var configuration = quickConfiguration
        configuration.queueCapacity = 8
        let northTCP = try await TCPTransport.start(for: north, configuration: configuration)
        let slow = try await RawPeer(acknowledging: false)
        var alice = try await Inbox("alice", on: north)
        let bob = AgentIdentifier(name: "bob", addresses: [slow.address])

        let sender = alice.agent
        let producer = Task {
            for number in 1...100 {
                await sender.sendWhenReady(ACLMessage(.inform, receivers: [bob], content: "\(number)"))
            }
        }
        await slow.waitForMessages(8)
        #expect(northTCP.queuedCount(towards: slow.address) == 8, "the queue holds at most its capacity")
        alice.agent.send(ACLMessage(.inform, receivers: [bob], content: "impatient"))
        let refused = try #require(await alice.next())
        #expect(refused.userDefined["X-failure-reason"] == "queue-full")
        #expect(refused.performative == .failure)

        slow.startAcknowledging()
        await producer.value
        await slow.waitForMessages(100)
        #expect(!slow.received.contains { $0.contains("impatient") }, "the refused message was not sent after all")
        #expect(slow.received.count == 100)
        for (index, text) in slow.received.enumerated() {
            #expect(text.contains(":content \"\(index + 1)\""), "message \(index + 1) in order: \(text)")
        }
        await slow.close()
        await northTCP.shutdown()
    }
}
