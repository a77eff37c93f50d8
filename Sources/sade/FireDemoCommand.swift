import ArgumentParser
import Foundation
import SADECore
import SADEExamples

/// `sade demo fire`: SADE4Health's Alarmed/Fireman example.
struct FireDemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fire",
        abstract: "The Alarmed agent watches a building; the Fireman puts out every fire it reports.",
        discussion: "Exits 0 when every fire was put out, 1 if that did not happen within --timeout."
    )

    @Option(help: "Seconds between two checks of the building by the Alarmed agent.")
    var interval: Double = 1

    @Option(help: "How many fires break out, one after the other.")
    var fires: Int = 3

    @Option(help: "Seconds to wait for all fires to be put out before giving up.")
    var timeout: Double = 60

    func validate() throws {
        guard interval > 0, interval <= 3600 else { throw ValidationError("--interval must be between 0 and 3600 seconds") }
        guard fires >= 1, fires <= 10_000 else { throw ValidationError("--fires must be between 1 and 10000") }
        guard timeout > 0, timeout <= 86_400 else { throw ValidationError("--timeout must be between 0 and 86400 seconds") }
    }

    func run() async throws {
        let platform = Environment(name: "fire-demo")
        let demo = FireAlarmDemo(interval: .seconds(interval), fires: fires, timeout: .seconds(timeout))
        do {
            _ = try await demo.run(on: platform) { line in print(line) }
        } catch let failure as FireAlarmDemo.Failure {
            FileHandle.standardError.write(Data("sade demo fire: \(failure)\n".utf8))
            throw ExitCode.failure
        }
    }
}
