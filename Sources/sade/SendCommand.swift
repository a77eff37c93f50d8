import ArgumentParser
import Foundation
import SADEACL
import SADECore
import SADENet

/// `sade send`: sends one message to an agent on another platform and prints the
/// reply (like JADE's DummyAgent).
struct SendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Send one ACL message to an agent over TCP or XMPP and print the reply in the FIPA string form.",
        discussion: """
            Example: sade send --to echo@tcp://127.0.0.1:7000 --performative request --content "(ping)". \
            On XMPP (a SPADE agent, say): sade send --xmpp-server 127.0.0.1:5222 --jid me@localhost \
            --password secret --register --to alice@localhost --content "(ping)". \
            An 'agree' is printed and the final answer awaited. Exits 1 with the reason when the \
            reply is a failure or no reply comes within --timeout.
            """
    )

    @Option(help: "The receiver: NAME@tcp://HOST:PORT (NAME may itself be local@platform); on XMPP its JID, NAME@DOMAIN.")
    var to: String

    @Option(help: "The communicative act, e.g. request, query-ref, inform, cfp.")
    var performative: String = "request"

    @Option(help: "The message content.")
    var content: String?

    @Option(help: "The content language.")
    var language: String?

    @Option(help: "The ontology.")
    var ontology: String?

    @Option(name: .customLong("protocol"), help: "The interaction protocol, e.g. fipa-request.")
    var interactionProtocol: String?

    @Option(help: "Seconds to wait for the reply.")
    var timeout: Double = 10

    @Option(help: "The interface this command listens on for the reply (default: loopback for a local receiver, every interface otherwise).")
    var host: String?

    @Option(help: "The host name the receiver should use to reach this command, if not --host (default: this machine's name when listening on every interface).")
    var advertisedHost: String?

    @OptionGroup(title: "Mutual TLS (the command's platform is then the one its certificate names)")
    var tls: PlatformTLSOptions

    @Flag(help: "Find the receiver's platform on the local network (mDNS): --to is then NAME@PLATFORM, no address.")
    var discover = false

    @OptionGroup(title: "XMPP (SPADE agents, XMPP servers)")
    var xmpp: XMPPOptions

    @Option(help: "With --xmpp-server: the sender's JID, USER@DOMAIN (its account's password is --password).")
    var jid: String?

    func validate() throws {
        if xmpp.isOn {
            guard !discover, tls.certificate == nil else { throw ValidationError("--xmpp-server excludes --discover and mutual TLS") }
            guard let jid, XMPPOptions.bareJID(jid) != nil else { throw ValidationError("--xmpp-server needs --jid USER@DOMAIN") }
            guard XMPPOptions.bareJID(to) != nil else { throw ValidationError("--to must be a JID, NAME@DOMAIN, on XMPP") }
        } else if jid != nil {
            throw ValidationError("--jid goes with --xmpp-server")
        } else if discover {
            guard Self.receiver(from: to) != nil || AgentIdentifier(name: to).platform.map({ !$0.isEmpty }) == true else {
                throw ValidationError("--to must look like NAME@PLATFORM with --discover, e.g. echo@beta")
            }
        } else {
            guard Self.receiver(from: to) != nil else {
                throw ValidationError("--to must look like NAME@tcp://HOST:PORT, e.g. echo@tcp://127.0.0.1:7000")
            }
        }
        guard Performative(rawValue: performative) != nil else {
            throw ValidationError("unknown performative '\(performative)'; one of: \(Performative.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard timeout > 0, timeout <= 86_400 else { throw ValidationError("--timeout must be between 0 and 86400 seconds") }
    }

    /// This machine's first IPv4 address that is not the loopback's, if it has one.
    static var networkAddress: String? {
        PlatformDiscovery.advertisedAddresses(host: "0.0.0.0").first.map(\.description).flatMap { $0.hasPrefix("127.") ? nil : $0 }
    }

    /// Splits `NAME@tcp://HOST:PORT` at the last `@tcp://`.
    static func receiver(from text: String) -> AgentIdentifier? {
        guard let at = text.range(of: "@tcp://", options: .backwards) else { return nil }
        let name = String(text[..<at.lowerBound])
        let address = "tcp://" + text[at.upperBound...]
        guard !name.isEmpty, TCPEndpoint(address: address) != nil else { return nil }
        return AgentIdentifier(name: name, addresses: [address])
    }

    func run() async throws {
        CommandLogging.bootstrapped
        let platform = Environment(name: try tls.platformName() ?? "sade-send-\(ProcessInfo.processInfo.processIdentifier)")
        if let jid, let (user, domain) = XMPPOptions.bareJID(jid), let configuration = xmpp.configuration(domain: domain) {
            let transport: XMPPTransport
            do {
                transport = try await XMPPTransport.start(for: platform, configuration: configuration, agents: [user])
            } catch {
                FileHandle.standardError.write(Data("sade send: \(error)\n".utf8))
                throw ExitCode.failure
            }
            let receiver = AgentIdentifier(name: to, addresses: ["xmpp://\(to)"])
            try await exchange(on: platform, as: user, with: receiver) { await transport.shutdown(from: platform) }
            return
        }
        var receiver = Self.receiver(from: to) ?? AgentIdentifier(name: to)
        let foundOnNetwork = receiver.addresses.isEmpty
        if foundOnNetwork {
            // --discover: where the platform is, from its mDNS advertisement.
            guard let found = try await Self.find(platform: String(receiver.platform ?? ""), within: timeout) else {
                FileHandle.standardError.write(Data("sade send: no platform '\(receiver.platform ?? "")' found on the network within \(timeout) s\n".utf8))
                throw ExitCode.failure
            }
            receiver = AgentIdentifier(name: receiver.name, addresses: found.transportAddresses)
        }
        let isLocal = TCPEndpoint(address: receiver.addresses[0]).map { ["127.0.0.1", "localhost", "::1"].contains($0.host) } ?? false
        let transport = try await TCPTransport.start(
            for: platform,
            configuration: TCPTransport.Configuration(
                host: host ?? (isLocal ? "127.0.0.1" : "0.0.0.0"), port: 0,
                // Found on the network: it reaches us back at our address there, not at our host name.
                advertisedHost: advertisedHost ?? (foundOnNetwork && !isLocal && host == nil ? Self.networkAddress : nil), tls: tls.tls))
        try await exchange(on: platform, as: "sender", with: receiver) { await transport.shutdown() }
    }

    /// Sends the message from an agent called `name` to `receiver`, prints the replies,
    /// and ends the transport with `shutdown`.
    private func exchange(on platform: Environment, as name: String, with receiver: AgentIdentifier, shutdown: () async -> Void) async throws {
        let (replies, continuation) = AsyncStream.makeStream(of: ACLMessage.self)
        let conversation = "send-\(UInt64.random(in: 1...UInt64.max))"
        let sender = Agent(name: name, environment: platform, handlers: [
            MessageHandler(MessageTemplate(conversationID: conversation)) { _, message in continuation.yield(message) }
        ])
        try await sender.start()
        let message = ACLMessage(
            Performative(rawValue: performative)!, receivers: [receiver], content: content, language: language,
            ontology: ontology, interactionProtocol: interactionProtocol, conversationID: conversation,
            replyWith: "\(conversation)-1", replyBy: Date().addingTimeInterval(timeout))
        sender.send(message)

        let outcome = await Self.awaitAnswer(replies, timeout: timeout)
        await sender.stop()
        await shutdown()
        for reply in outcome.replies {
            print((try? ACLStringCodec().encode(reply)) ?? "\(reply)")
        }
        if outcome.replies.isEmpty {
            FileHandle.standardError.write(Data("sade send: no reply from \(to) within \(timeout) s\n".utf8))
            throw ExitCode.failure
        }
        if let last = outcome.replies.last, last.performative == .failure {
            let reason = last.userDefined["X-failure-reason"].map { "\($0): " } ?? ""
            FileHandle.standardError.write(Data("sade send: failure: \(reason)\(last.content ?? "")\n".utf8))
            throw ExitCode.failure
        }
        if outcome.timedOut {
            FileHandle.standardError.write(Data("sade send: agreed, but no result within \(timeout) s\n".utf8))
            throw ExitCode.failure
        }
    }

    /// The platform called `name` as it advertises itself, once found, or `nil` after `timeout` seconds.
    private static func find(platform name: String, within timeout: Double) async throws -> DiscoveredPlatform? {
        let (changes, continuation) = AsyncStream.makeStream(of: DiscoveredPlatform.self)
        let discovery = try await PlatformDiscovery.start(advertising: nil) { change in
            if case .found(let platform) = change, platform.name == name { continuation.yield(platform) }
        }
        let found = await withTaskGroup(of: DiscoveredPlatform?.self) { group in
            group.addTask { await changes.first { _ in true } }
            group.addTask {
                try? await Task.sleep(for: .seconds(timeout))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        continuation.finish()
        await discovery.stop()
        return found
    }

    /// The replies up to the first that is not an `agree`, or what came before the timeout.
    private static func awaitAnswer(_ replies: AsyncStream<ACLMessage>, timeout: Double) async -> (replies: [ACLMessage], timedOut: Bool) {
        await withTaskGroup(of: (replies: [ACLMessage], timedOut: Bool)?.self) { group in
            let collected = Collected()
            group.addTask {
                for await reply in replies {
                    await collected.append(reply)
                    if reply.performative != .agree { return (await collected.all, false) }
                }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(timeout))
                return (await collected.all, true)
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            if let first { return first }
            return (await collected.all, true)
        }
    }
}

/// Replies gathered so far, shared by the reading and the timing task.
private actor Collected {
    var all: [ACLMessage] = []
    func append(_ message: ACLMessage) { all.append(message) }
}
