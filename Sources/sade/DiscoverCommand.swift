import ArgumentParser
import Foundation
import SADECore
import SADENet

/// `sade discover`: the SADE platforms on the local network (mDNS, `_sade._tcp`).
struct DiscoverCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "discover",
        abstract: "List the SADE platforms advertised on the local network (DNS-SD over multicast DNS) and their services.",
        discussion: """
            Listens for --timeout seconds, then asks the DF of every platform found for the \
            agents and services it holds (a federated search, at most 2 s) and lists them under \
            their platform; a platform whose DF does not answer is listed with why.
            """)

    @Option(help: "Seconds to listen before listing.")
    var timeout: Double = 3

    @Flag(help: "Keep listening and print platforms as they come and go, until SIGINT or SIGTERM.")
    var watch = false

    @Flag(help: "Print JSON: an array of {name, port, addresses, services, version, agents, directoryProblem}.")
    var json = false

    func validate() throws {
        guard timeout > 0, timeout <= 3_600 else { throw ValidationError("--timeout must be between 0 and 3600 seconds") }
    }

    func run() async throws {
        if watch { await TerminationSignal.install() }  // a signal right after the first line stops us cleanly
        let discovery = try await PlatformDiscovery.start(advertising: nil) { change in
            guard watch else { return }
            let line: String
            switch change {
            case .found(let platform): line = "found \(platform.name) \(platform.transportAddresses.joined(separator: " ")) \(platform.services.joined(separator: ","))"
            case .updated(let platform): line = "updated \(platform.name) \(platform.transportAddresses.joined(separator: " ")) \(platform.services.joined(separator: ","))"
            case .lost(let name): line = "lost \(name)"
            }
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        }
        if watch {
            _ = await TerminationSignal.wait()
            await discovery.stop()
            return
        }
        try await Task.sleep(for: .seconds(timeout))
        let platforms = discovery.platforms
        await discovery.stop()
        let listings = await Self.directories(of: platforms, within: min(timeout, 2))
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            print(String(decoding: try encoder.encode(listings), as: UTF8.self))
        } else if platforms.isEmpty {
            print("no SADE platform found in \(timeout) s")
        } else {
            for listing in listings {
                print("\(listing.name)\t\(listing.addresses.map { "tcp://\($0):\(listing.port)" }.joined(separator: " "))\t\(listing.services.joined(separator: ","))")
                if let problem = listing.directoryProblem { print("  its DF did not answer: \(problem)") }
                for entry in listing.agents ?? [] {
                    let services = entry.services.map { service in
                        let kind = ([service.type] + service.protocols).joined(separator: ", ")
                        return "\(service.name) (\(kind))"
                    }
                    print("  \(entry.agent.name)\t\(services.joined(separator: "; "))")
                }
            }
        }
    }

    /// A platform found and what its DF holds (JSON: the advertisement's fields, `agents`
    /// and, when its DF did not answer, `directoryProblem`).
    struct Listing: Encodable {
        let name: String
        let port: Int
        let addresses: [String]
        let services: [String]
        let version: String?
        let agents: [DirectoryEntry]?
        let directoryProblem: String?
    }

    /// Asks the DFs of `platforms` what they hold, from a platform of our own (not
    /// advertised) with a federated search; waits at most `seconds`.
    static func directories(of platforms: [DiscoveredPlatform], within seconds: Double) async -> [Listing] {
        var result: FederatedSearchResult?
        if !platforms.isEmpty {
            let here = Environment(name: "discover-\(UUID().uuidString.prefix(8).lowercased())")
            let loopbackOnly = platforms.allSatisfy { $0.addresses.allSatisfy { $0.hasPrefix("127.") } }
            let reachBack = PlatformDiscovery.advertisedAddresses(host: "0.0.0.0").first?.description
            if let transport = try? await TCPTransport.start(
                for: here,
                configuration: TCPTransport.Configuration(
                    host: loopbackOnly ? "127.0.0.1" : "0.0.0.0", port: 0, advertisedHost: loopbackOnly ? nil : reachBack,
                    connectAttempts: 2, deliveryTimeout: .seconds(seconds), drainTimeout: .milliseconds(200)))
            {
                for platform in platforms { here.learn(platform.transportAddresses, ofPlatform: platform.name) }
                let asker = Agent(name: "discover", environment: here)
                if (try? await asker.start()) != nil {
                    result = await asker.searchDirectories(for: ServiceTemplate(), limit: 10_000, timeout: .milliseconds(Int64(seconds * 1000)))
                }
                await transport.shutdown()
            }
            await here.shutdown()
        }
        return platforms.map { platform in
            let problem: String? =
                if let result { result.unanswered[platform.name].map { "\($0)" } } else { "this process could not open a TCP port to ask it" }
            return Listing(
                name: platform.name, port: platform.port, addresses: platform.addresses, services: platform.services, version: platform.version,
                agents: problem == nil ? result?.answers[platform.name] : nil,
                directoryProblem: problem)
        }
    }
}
