import Foundation
import SADEProcess

/// The `sade` executable built next to the test bundle (or another program the tests
/// need: Python servers, Prosody, nginx, `ip`), run as a separate process.
///
/// It is a ``ChildProcess``: it starts with an empty signal mask and default dispositions,
/// leads a process group of its own, and its group is stopped (SIGTERM, then SIGKILL) by
/// ``terminate()``, once no one holds it, and when the test process ends however it ends.
public final class SadeProcess: Sendable {
    /// The executable's location.
    public static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("sade")
    }

    /// The running child.
    public let child: ChildProcess

    /// Starts `executable` (`sade` by default) with `arguments`, in `directory` if given,
    /// with `environment` added to this process's; `input` is its standard input, and
    /// `passing` are descriptors it gets as its 3, 4, ….
    public init(
        _ arguments: [String], input: String? = nil, executable: URL = SadeProcess.executable, directory: URL? = nil,
        environment: [String: String] = [:], passing descriptors: [Int32] = []
    ) throws {
        child = try ChildProcess(
            executable, arguments, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 }, directory: directory,
            input: input.map { .text($0) } ?? .none, passing: descriptors)
    }

    /// Starts `sade platform` on a free loopback port and waits until it listens.
    public static func platform(name: String, participants: Int = 0, arguments: [String] = []) async throws -> (SadeProcess, address: String) {
        let platform = try SadeProcess(["platform", "--name", name, "--port", "0", "--participants", "\(participants)"] + arguments)
        let line = await platform.line(containing: "listening on ")
        guard let line, let range = line.range(of: "listening on ") else {
            throw SadeProcessError.notListening(platform.child.error)
        }
        return (platform, String(line[range.upperBound...]).trimmingCharacters(in: .whitespaces))
    }

    /// Starts the tests' Python (``TestTools/python``) on `script arguments…` (a test
    /// server) and waits for the line `listening PORT` it prints when ready; returns it
    /// with the port. `modules` are the Python packages the script needs; `passing` are
    /// descriptors it gets as its 3, 4, … (a socket bound for it).
    public static func pythonServer(
        _ script: URL, _ arguments: [String], modules: [String] = [], passing descriptors: [Int32] = []
    ) async throws -> (SadeProcess, port: Int) {
        try await TestTools.requirePython(modules: modules)
        let server = try SadeProcess([script.path] + arguments, executable: TestTools.python, passing: descriptors)
        guard let line = await server.line(containing: "listening "),
            let port = Int(line.split(separator: " ").last ?? "")
        else { throw SadeProcessError.notListening(await server.stopped().error) }
        return (server, port)
    }

    /// The first line of standard output containing `needle`, once printed; `nil` if
    /// the process ends first.
    public func line(containing needle: String) async -> String? {
        await child.line(containing: needle)
    }

    /// The first line of standard output containing any of `needles`, once printed; `nil`
    /// if the process ends first.
    public func line(containingAny needles: [String]) async -> String? {
        await child.line(containingAny: needles)
    }

    /// Sends `signal` (SIGINT, SIGTERM, SIGKILL) to the process.
    public func signal(_ number: Int32) {
        child.signal(number)
    }

    /// Sends `signal` to the process group the process leads (the process and every
    /// process it started that stayed in its group).
    public func signalGroup(_ number: Int32) {
        child.signalGroup(number)
    }

    /// Waits for the process to end; returns its exit status and what it printed.
    public func finish() async -> (status: Int32, output: String, error: String) {
        await child.finish()
    }

    /// Stops the process's group (SIGTERM, then SIGKILL after `grace`) and returns what
    /// it printed once no process of the group is left.
    public func stopped(grace: Duration = .seconds(5)) async -> (status: Int32, output: String, error: String) {
        await child.stop(grace: grace)
        return await child.finish()
    }

    /// Runs the tests' Python on `arguments` to the end, after checking it can import
    /// `modules`.
    public static func python(_ arguments: [String], modules: [String]) async throws -> (status: Int32, output: String, error: String) {
        try await TestTools.requirePython(modules: modules)
        return try await SadeProcess(arguments, executable: TestTools.python).finish()
    }

    /// Runs `sade` with `arguments` (and `input` as its standard input) to the end.
    public static func run(_ arguments: [String], input: String? = nil) async throws -> (status: Int32, output: String, error: String) {
        try await SadeProcess(arguments, input: input).finish()
    }

    /// Runs `program` with `arguments` to the end; throws ``SadeProcessError/failed`` with
    /// what it printed unless it exits with 0.
    @discardableResult
    public static func check(_ program: URL, _ arguments: [String], directory: URL? = nil) async throws -> String {
        let run = try await SadeProcess(arguments, executable: program, directory: directory).finish()
        guard run.status == 0 else {
            throw SadeProcessError.failed("\(program.path) \(arguments.joined(separator: " ")) (\(run.status)): \(run.output)\(run.error)")
        }
        return run.output
    }

    /// Stops the process's group if it still runs, without waiting: SIGTERM, then SIGKILL
    /// after a grace period (at the end of a test, in a `defer`).
    public func terminate() {
        child.terminate()
    }
}

public enum SadeProcessError: Error {
    case notListening(String)
    case failed(String)
}
