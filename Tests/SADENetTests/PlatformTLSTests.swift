import Foundation
import SADEACL
import SADECore
import SADETestSupport
import Testing

@testable import SADENet

@Suite("Platforms authenticated by mutual TLS", .timeLimit(.minutes(3)))
struct PlatformTLSTests {
    /// A transport for `platform` with a certificate for `name` from `authority`, trusting `trusted`.
    static func transport(
        for platform: Environment, certificateFor name: String? = nil, from authority: TestCertificateAuthority?,
        trusting trusted: TestCertificateAuthority?
    ) async throws -> TCPTransport {
        var configuration = quickConfiguration
        configuration.connectAttempts = 2
        if let authority, let trusted {
            let (certificate, key) = try authority.issue(commonName: name ?? platform.name)
            configuration.tls = PlatformTLS(
                certificateFile: certificate, keyFile: key, certificateAuthorityFile: trusted.certificateAuthority)
        }
        return try await TCPTransport.start(for: platform, configuration: configuration)
    }

    @Test("two platforms of one CA talk both ways; a platform of another CA, or without TLS, cannot reach them: its sender gets a failure")
    func onlyTrustedPlatformsConnect() async throws {
        let deployment = try TestCertificateAuthority.make(), stranger = try TestCertificateAuthority.make()
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
        let deployment = try TestCertificateAuthority.make()
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

    @Test("a key of another certificate or an unreadable authority file: the transport does not start, and says why")
    func badFilesAreRefused() async throws {
        let deployment = try TestCertificateAuthority.make()
        defer { deployment.remove() }
        let (certificate, _) = try deployment.issue(commonName: "north")
        var configuration = quickConfiguration
        configuration.tls = PlatformTLS(certificateFile: certificate, keyFile: deployment.unrelatedKey, certificateAuthorityFile: deployment.certificateAuthority)
        await #expect(throws: PlatformTLS.Failure.self) { _ = try await TCPTransport.start(for: Environment(name: "north"), configuration: configuration) }
        configuration.tls = PlatformTLS(certificateFile: certificate, keyFile: deployment.serverKey, certificateAuthorityFile: "/nonexistent/ca.pem")
        await #expect(throws: PlatformTLS.Failure.self) { _ = try await TCPTransport.start(for: Environment(name: "north"), configuration: configuration) }
    }
}
