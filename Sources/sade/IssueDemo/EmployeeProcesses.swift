import Foundation
import SADEProcess
import SADEACL
import SADEExamples
import SADENet

/// The issue-track demo's colleagues as separate processes: one `sade issues-employee`
/// per employee (a platform of its own on loopback TCP), stopped at the end — or, if
/// this process dies, as soon as their standard input closes. With `sightings`, each
/// phone publishes in its own DF and is advertised by mDNS; a phone counts as started
/// once the company has found it on the network with its services.
actor EmployeeProcesses: ColleagueLauncher {
    /// Why an employee's process did not come up.
    struct StartFailure: Error, CustomStringConvertible {
        let employee: String
        let output: String
        var description: String { "the process of employee \(employee) ended before publishing its services: \(output)" }
    }

    private let dataDirectory: String
    private let workTime: Double
    private let narrator: Narrator
    private let sightings: PlatformSightings?
    private var children: [(id: String, process: ChildProcess)] = []

    init(dataDirectory: String, workTime: Double, narrator: Narrator, sightings: PlatformSightings? = nil) {
        self.dataDirectory = dataDirectory
        self.workTime = workTime
        self.narrator = narrator
        self.sightings = sightings
    }

    /// Starts one process per employee and waits until each has published its services.
    func start(_ employees: [String], directory: AgentIdentifier) async throws {
        let df = "\(directory.name)@\(directory.addresses.first ?? "")"
        for id in employees {
            let child = try ChildProcess(
                ChildProcess.sade,
                ["issues-employee", "--data", dataDirectory, "--employee", id, "--work-time", "\(workTime)", "--exit-when-input-closes"]
                    + (sightings == nil ? ["--directory", df] : ["--discover"]),
                input: .keptOpen)
            children.append((id, child))
            guard let ready = await child.line(containing: "ready on ") else {
                throw StartFailure(employee: id, output: await child.finish().output)
            }
            let address = ready.components(separatedBy: "ready on ").last ?? ""
            narrator.say("Company", "\(id)'s phone: process \(child.processIdentifier) on \(address)")
            if let sightings {
                guard let phone = await sightings.platformWithServices(named: "phone-\(id)") else { throw CancellationError() }
                narrator.say("Company", "found \(phone.name) on the network at \(phone.transportAddresses.joined(separator: " ")), offering \(phone.services.joined(separator: ", "))")
            }
        }
    }

    /// Asks every process to stop (SIGTERM) and waits for them.
    func stop() async {
        for child in children { child.process.terminate() }
        for child in children { _ = await child.process.finish() }
        children = []
    }
}

/// The platforms discovery has found with services, for a launcher to wait on.
actor PlatformSightings {
    private var seen: [String: DiscoveredPlatform] = [:]
    private var waiting: [String: [(id: UInt64, continuation: CheckedContinuation<DiscoveredPlatform?, Never>)]] = [:]
    private var nextWaiter: UInt64 = 0

    /// Takes a change heard by discovery.
    func take(_ change: PlatformDiscovery.Change) {
        switch change {
        case .found(let platform), .updated(let platform):
            guard !platform.services.isEmpty else { return }
            seen[platform.name] = platform
            for waiter in waiting.removeValue(forKey: platform.name) ?? [] { waiter.continuation.resume(returning: platform) }
        case .lost(let name):
            seen[name] = nil
        }
    }

    /// The platform called `name` once it has been found offering services (at once if
    /// it has); `nil` if the task is cancelled first.
    func platformWithServices(named name: String) async -> DiscoveredPlatform? {
        if let platform = seen[name] { return platform }
        nextWaiter += 1
        let id = nextWaiter
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if Task.isCancelled { return continuation.resume(returning: nil) }
                waiting[name, default: []].append((id, continuation))
            }
        } onCancel: {
            Task { await self.giveUp(id, on: name) }
        }
    }

    private func giveUp(_ id: UInt64, on name: String) {
        guard let index = waiting[name]?.firstIndex(where: { $0.id == id }) else { return }
        waiting[name]?.remove(at: index).continuation.resume(returning: nil)
    }
}
