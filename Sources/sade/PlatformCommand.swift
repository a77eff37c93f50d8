import ArgumentParser
import Foundation
import SADECore
import SADEExamples
import SADENet

/// `sade platform`: a standalone platform other processes can talk to.
struct PlatformCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "platform",
        abstract: "Run a standalone agent platform reachable over TCP until SIGINT or SIGTERM.",
        discussion: """
            The platform has its AMS and DF (answering fipa-agent-management requests), an \
            agent named 'echo' that answers every request with an inform carrying the same \
            content, and optionally Contract Net participants 'bidder-1' … 'bidder-N' \
            (the last one always refuses). Prints 'listening on tcp://HOST:PORT' once ready.
            """
    )

    @Option(help: "The platform's name: agents on it are called NAME@this-name.")
    var name: String = "sade"

    @Option(help: "The interface to listen on (0.0.0.0 for every interface).")
    var host: String = "127.0.0.1"

    @Option(help: "The TCP port to listen on; 0 picks a free one.")
    var port: Int = 7000

    @Option(help: "The host name other machines should use to reach this platform, if not --host.")
    var advertisedHost: String?

    @Option(help: "How many Contract Net participants to start (bidder-1 … bidder-N).")
    var participants: Int = 0

    @OptionGroup(title: "Mutual TLS")
    var tls: PlatformTLSOptions

    @Flag(help: "Advertise the platform on the local network (mDNS, _sade._tcp) and find the others: their agents are then reached by name alone.")
    var discover = false

    @Option(help: "Seconds other hosts keep this platform's discovery records (it vanishes this long after dying without a goodbye).")
    var discoveryTTL: Int = 120

    @Option(help: "Seconds the DF waits for the DFs of the platforms found, in a search asked with :max-depth (at most half of what the request's reply-by leaves).")
    var directorySearchBound: Double = 2

    @OptionGroup(title: "XMPP: the agents also log in to an XMPP server, each as NAME@DOMAIN (SPADE agents talk to them)")
    var xmpp: XMPPOptions

    @Option(help: "The XMPP domain of the agents' JIDs, with --xmpp-server.")
    var xmppDomain: String?

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        guard !name.isEmpty, !name.contains("@"), !name.contains(where: \.isWhitespace) else {
            throw ValidationError("--name must be a word without '@' or spaces")
        }
        guard (0...10_000).contains(participants) else { throw ValidationError("--participants must be between 0 and 10000") }
        guard (1...86_400).contains(discoveryTTL) else { throw ValidationError("--discovery-ttl must be between 1 and 86400 seconds") }
        guard directorySearchBound > 0, directorySearchBound <= 3_600 else { throw ValidationError("--directory-search-bound must be between 0 and 3600 seconds") }
        guard xmpp.isOn == (xmppDomain != nil) else { throw ValidationError("--xmpp-server and --xmpp-domain go together") }
        if let xmppDomain, XMPPOptions.bareJID("agent@\(xmppDomain)") == nil { throw ValidationError("--xmpp-domain must be a domain, e.g. localhost") }
        if let certified = try tls.platformName(), certified != name {
            throw ValidationError("--tls-cert is platform \(certified)'s, not \(name)'s: name the platform as its certificate does")
        }
    }

    func run() async throws {
        CommandLogging.bootstrapped
        await TerminationSignal.install()  // before anything is announced: a SIGTERM right after must stop us cleanly
        let platform = Environment(name: name)
        platform.federatedSearchBound = .milliseconds(Int64(directorySearchBound * 1000))
        let transport: TCPTransport
        do {
            // Discovered on every interface: others reach it at its network address, not its host name.
            let reachAt = advertisedHost ?? (discover && ["0.0.0.0", "::"].contains(host) ? SendCommand.networkAddress : nil)
            transport = try await TCPTransport.start(
                for: platform, configuration: TCPTransport.Configuration(host: host, port: port, advertisedHost: reachAt, tls: tls.tls))
        } catch {
            FileHandle.standardError.write(Data("sade platform: cannot listen on \(host):\(port): \(error)\n".utf8))
            throw ExitCode.failure
        }
        var agents = [DiagnosticAgents.echo(on: platform)]
        agents += DiagnosticAgents.bidders(count: participants, on: platform)
        for agent in agents { try await agent.start() }
        say("platform \(name) listening on \(transport.addresses.joined(separator: " "))")
        say("agents: \(agents.map(\.identifier.name).joined(separator: ", ")), ams@\(name), df@\(name)")
        var xmppTransport: XMPPTransport?
        if let xmppDomain, let configuration = xmpp.configuration(domain: xmppDomain) {
            do {
                xmppTransport = try await XMPPTransport.start(for: platform, configuration: configuration, agents: agents.map(\.name))
            } catch {
                FileHandle.standardError.write(Data("sade platform: \(error)\n".utf8))
                for agent in agents { await agent.stop() }
                await transport.shutdown()
                throw ExitCode.failure
            }
            say("on XMPP as \(agents.map { "\($0.name)@\(xmppDomain)" }.joined(separator: ", "))")
        }
        var discovery: PlatformDiscovery?
        if discover {
            do {
                // Every interface's address when on all of them, even if replies name one.
                let everyAddress = advertisedHost == nil && ["0.0.0.0", "::"].contains(host) ? PlatformDiscovery.advertisedAddresses(host: "0.0.0.0") : nil
                discovery = try await PlatformDiscovery.start(
                    for: platform, transport: transport, addresses: everyAddress, ttl: UInt32(discoveryTTL)
                ) { change in
                    switch change {
                    case .found(let found): say("found platform \(found.name) at \(found.transportAddresses.joined(separator: " "))")
                    case .updated(let found): say("platform \(found.name) now at \(found.transportAddresses.joined(separator: " ")) services \(found.services)")
                    case .lost(let lost): say("lost platform \(lost)")
                    }
                }
                say("advertised as \(name).\(PlatformDiscovery.serviceType)")
            } catch {
                FileHandle.standardError.write(Data("sade platform: discovery: \(error)\n".utf8))
                await transport.shutdown()
                throw ExitCode.failure
            }
        }

        let signal = await TerminationSignal.wait()
        say("\(signal) received: shutting down")
        if let seen = discovery?.seen {
            say("discovery: \(seen.received) messages read, \(seen.malformed) malformed packets dropped, \(seen.limited) dropped by the rate limit")
        }
        await discovery?.stop()  // goodbye first: the others forget this platform at once
        await xmppTransport?.shutdown(from: platform)
        for agent in agents { await agent.stop() }
        await transport.shutdown()
        say("platform \(name) stopped")
    }

    /// Writes a line to standard output at once (print is buffered when piped, and a
    /// parent process waits for the listening line).
    private nonisolated func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
