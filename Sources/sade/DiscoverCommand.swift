import ArgumentParser
import Foundation
import SADENet

/// `sade discover`: the SADE platforms on the local network (mDNS, `_sade._tcp`).
struct DiscoverCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "discover",
        abstract: "List the SADE platforms advertised on the local network (DNS-SD over multicast DNS) and their services.")

    @Option(help: "Seconds to listen before listing.")
    var timeout: Double = 3

    @Flag(help: "Keep listening and print platforms as they come and go, until SIGINT or SIGTERM.")
    var watch = false

    @Flag(help: "Print JSON: an array of {name, port, addresses, services, version}.")
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
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            print(String(decoding: try encoder.encode(platforms), as: UTF8.self))
        } else if platforms.isEmpty {
            print("no SADE platform found in \(timeout) s")
        } else {
            for platform in platforms {
                print("\(platform.name)\t\(platform.transportAddresses.joined(separator: " "))\t\(platform.services.joined(separator: ","))")
            }
        }
    }
}
