import Foundation
import SADEACL
import SADEExamples

/// The issue-track demo's colleagues as separate processes: one `sade issues-employee`
/// per employee (a platform of its own on loopback TCP), stopped at the end — or, if
/// this process dies, as soon as their standard input closes.
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
    private var children: [(id: String, process: ChildProcess)] = []

    init(dataDirectory: String, workTime: Double, narrator: Narrator) {
        self.dataDirectory = dataDirectory
        self.workTime = workTime
        self.narrator = narrator
    }

    /// Starts one process per employee and waits until each has published its services.
    func start(_ employees: [String], directory: AgentIdentifier) async throws {
        let df = "\(directory.name)@\(directory.addresses.first ?? "")"
        for id in employees {
            let child = try ChildProcess(
                ChildProcess.sade,
                ["issues-employee", "--data", dataDirectory, "--employee", id, "--directory", df, "--work-time", "\(workTime)",
                 "--exit-when-input-closes"],
                keepInputOpen: true)
            children.append((id, child))
            guard let ready = await child.line(containing: "ready on ") else {
                throw StartFailure(employee: id, output: await child.finish().output)
            }
            let address = ready.components(separatedBy: "ready on ").last ?? ""
            narrator.say("Company", "\(id)'s phone: process \(child.processIdentifier) on \(address)")
        }
    }

    /// Asks every process to stop (SIGTERM) and waits for them.
    func stop() async {
        for child in children { child.process.terminate() }
        for child in children { _ = await child.process.finish() }
        children = []
    }
}
