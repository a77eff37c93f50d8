import Foundation
import SADEACL
import SADECore
import SADETestSupport
import SADETestTiming
import Testing

@testable import SADENet

@Suite("Platforms authenticated by mutual TLS", .timeLimit(.minutes(3)), .timed)
struct PlatformTLSTests {
    /// A transport for `platform` with a certificate for `name` from `authority`, trusting `trusted`.
    static func transport(
        for platform: Environment, certificateFor name: String? = nil, from authority: TestCertificateAuthority?,
        trusting trusted: TestCertificateAuthority?
    ) async throws -> TCPTransport {
        var configuration = quickConfiguration
        configuration.connectAttempts = 2
        if let authority, let trusted {
            let (certificate, key) = try await authority.issue(commonName: name ?? platform.name)
            configuration.tls = PlatformTLS(
                certificateFile: certificate, keyFile: key, certificateAuthorityFile: trusted.certificateAuthority)
        }
        return try await TCPTransport.start(for: platform, configuration: configuration)
    }

    @Test("two platforms of one CA talk both ways; a platform of another CA, or without TLS, cannot reach them: its sender gets a failure")
    func onlyTrustedPlatformsConnect() async throws {
        let deployment = try await TestCertificateAuthority.make(), stranger = try await TestCertificateAuthority.make()
        defer { deployment.remove(); stranger.remove() }
        let north = Environment(name: "north"), south = Environment(name: "south")
        let northTCP = try await Self.transport(for: north, from: deployment, trusting: deployment)
        let southTCP = try await Self.transport(for: south, from: deployment, trusting: deployment)
        var alice = try await Inbox("alice", on: north)
        var bob = try await Inbox("bob", on: south, echo: true)
        let bobAddress = AgentIdentifier(name: "bob@south", addresses: southTCP.addresses)

        alice.agent.send(ACLMessage(.request, receivers: [bobAddress], content: "(over tls)"))
        #expect(await bob.next()?.content == "(over tls)")
        let reply = await alice.next()
        #expect(reply?.performative == .inform && reply?.content == "(over tls)", "the reply comes back over TLS too")

        for (name, authority) in [("mallory", Optional(stranger)), ("plain", nil)] {
            let outsider = Environment(name: name)
            let outsiderTCP = try await Self.transport(for: outsider, from: authority, trusting: authority)
            var eve = try await Inbox("eve", on: outsider)
            eve.agent.send(ACLMessage(.inform, receivers: [bobAddress], content: "(let me in)"))
            let failure = await eve.next()
            #expect(failure?.performative == .failure, "\(name)")
            #expect(failure?.userDefined["X-failure-reason"] == "unreachable", "\(name): \(failure?.content ?? "")")
            await outsiderTCP.shutdown()
        }
        alice.agent.send(ACLMessage(.inform, receivers: [bobAddress], content: "(still here)"))
        #expect(await bob.next()?.content == "(still here)", "bob got nothing from the outsiders")
        await northTCP.shutdown()
        await southTCP.shutdown()
    }

    @Test("a message whose sender names another platform than the connection's certificate is rejected, the next honest one delivered")
    func forgedSendersAreRejected() async throws {
        let deployment = try await TestCertificateAuthority.make()
        defer { deployment.remove() }
        let south = Environment(name: "south"), mallory = Environment(name: "mallory")
        let southTCP = try await Self.transport(for: south, from: deployment, trusting: deployment)
        let malloryTCP = try await Self.transport(for: mallory, from: deployment, trusting: deployment)
        var bob = try await Inbox("bob", on: south)
        let carol = try await Inbox("carol", on: mallory)
        let bobAddress = AgentIdentifier(name: "bob@south", addresses: southTCP.addresses)

        // Mallory's platform is trusted, but puts north's alice as the sender.
        var forged = ACLMessage(.request, receivers: [bobAddress], content: "(transfer everything)")
        forged.sender = AgentIdentifier(name: "alice@north")
        #expect(malloryTCP.send(forged, to: bobAddress, at: southTCP.addresses[0]) == nil)
        carol.agent.send(ACLMessage(.inform, receivers: [bobAddress], content: "(honest)"))
        let received = await bob.next()
        #expect(received?.content == "(honest)", "the forged message was not delivered before the honest one")
        #expect(received?.sender?.name == "carol@mallory")
        await malloryTCP.shutdown()
        await southTCP.shutdown()
    }

    @Test("""
        a trusted platform answering at another's address gets nothing: the sender's failure names the platform that answered; \
        the real one at that address is reached
        """)
    func theReceiversPlatformMustAnswer() async throws {
        let deployment = try await TestCertificateAuthority.make()
        defer { deployment.remove() }
        let north = Environment(name: "north"), mallory = Environment(name: "mallory"), south = Environment(name: "south")
        let northTCP = try await Self.transport(for: north, from: deployment, trusting: deployment)
        let malloryTCP = try await Self.transport(for: mallory, from: deployment, trusting: deployment)
        let southTCP = try await Self.transport(for: south, from: deployment, trusting: deployment)
        var alice = try await Inbox("alice", on: north)
        var impostor = try await Inbox("bob", on: mallory)
        var bob = try await Inbox("bob", on: south)

        // South's bob, believed to be at mallory's address.
        alice.agent.send(ACLMessage(.request, receivers: [AgentIdentifier(name: "bob@south", addresses: malloryTCP.addresses)], content: "(records)"))
        let failure = await alice.next()
        #expect(failure?.performative == .failure && failure?.userDefined["X-failure-reason"] == "unreachable")
        #expect(failure?.content?.contains("'mallory', not 'south'") == true, "\(failure?.content ?? "")")

        // At its own address, south answers; what mallory's bob has is only what came after.
        alice.agent.send(ACLMessage(.request, receivers: [AgentIdentifier(name: "bob@south", addresses: southTCP.addresses)], content: "(records)"))
        #expect(await bob.next()?.content == "(records)")
        alice.agent.send(ACLMessage(.inform, receivers: [AgentIdentifier(name: "bob@mallory", addresses: malloryTCP.addresses)], content: "(hello)"))
        #expect(await impostor.next()?.content == "(hello)", "mallory's bob received nothing meant for south before")
        for transport in [northTCP, malloryTCP, southTCP] { await transport.shutdown() }
    }

    @Test("""
        over mutual TLS a receiver must name its platform, or its sender hears so at once; a peer that takes the connection \
        and never finishes the handshake ends the attempts within the connect timeout, not the delivery timeout
        """)
    func unnamedReceiversAndStalledHandshakes() async throws {
        let deployment = try await TestCertificateAuthority.make()
        defer { deployment.remove() }
        let north = Environment(name: "north"), south = Environment(name: "south")
        let northTCP = try await Self.transport(for: north, from: deployment, trusting: deployment)
        let southTCP = try await Self.transport(for: south, from: deployment, trusting: deployment)
        var alice = try await Inbox("alice", on: north)
        alice.agent.send(ACLMessage(.inform, receivers: [AgentIdentifier(name: "bob", addresses: southTCP.addresses)], content: "(who?)"))
        let unnamed = await alice.next()
        #expect(unnamed?.userDefined["X-failure-reason"] == "unreachable")
        #expect(unnamed?.content?.contains("must name its platform") == true, "\(unnamed?.content ?? "")")

        let silent = try await RawPeer(acknowledging: false)  // reads, never answers: no ServerHello
        alice.agent.send(ACLMessage(.inform, receivers: [AgentIdentifier(name: "bob@south", addresses: [silent.address])], content: "(x)"))
        let stalled = await alice.next()
        #expect(stalled?.userDefined["X-failure-reason"] == "unreachable", "given up after the attempts, before the delivery timeout")
        #expect(stalled?.content?.contains("TLS handshake") == true, "\(stalled?.content ?? "")")
        await silent.close()
        await northTCP.shutdown()
        await southTCP.shutdown()
    }

    @Test("a key of another certificate or an unreadable authority file: the transport does not start, and says why")
    func badFilesAreRefused() async throws {
        let deployment = try await TestCertificateAuthority.make()
        defer { deployment.remove() }
        let (certificate, _) = try await deployment.issue(commonName: "north")
        var configuration = quickConfiguration
        configuration.tls = PlatformTLS(certificateFile: certificate, keyFile: deployment.unrelatedKey, certificateAuthorityFile: deployment.certificateAuthority)
        await #expect(throws: PlatformTLS.Failure.self) { _ = try await TCPTransport.start(for: Environment(name: "north"), configuration: configuration) }
        configuration.tls = PlatformTLS(certificateFile: certificate, keyFile: deployment.serverKey, certificateAuthorityFile: "/nonexistent/ca.pem")
        await #expect(throws: PlatformTLS.Failure.self) { _ = try await TCPTransport.start(for: Environment(name: "north"), configuration: configuration) }
    }
}
