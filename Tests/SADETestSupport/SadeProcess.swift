import Foundation
import Synchronization

/// The `sade` executable built next to the test bundle, run as a separate process.
public final class SadeProcess: Sendable {
    /// The executable's location.
    public static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("sade")
    }

    private let process: Process
    private let output: OutputCollector
    private let errors: OutputCollector

    /// Starts `sade` with `arguments`.
    /// Starts `executable` (`sade` by default) with `arguments`, in `directory` if given,
    /// with `environment` added to this process's.
    public init(
        _ arguments: [String], input: String? = nil, executable: URL = SadeProcess.executable, directory: URL? = nil,
        environment: [String: String] = [:]
    ) throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        if let input {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("sade-input-\(UUID().uuidString)")
            try Data(input.utf8).write(to: file)
            process.standardInput = try FileHandle(forReadingFrom: file)
        }
        output = OutputCollector(stdout.fileHandleForReading)
        errors = OutputCollector(stderr.fileHandleForReading)
        try process.run()
        self.process = process
    }

    /// Starts `sade platform` on a free loopback port and waits until it listens.
    public static func platform(name: String, participants: Int = 0, arguments: [String] = []) async throws -> (SadeProcess, address: String) {
        let platform = try SadeProcess(["platform", "--name", name, "--port", "0", "--participants", "\(participants)"] + arguments)
        let line = await platform.output.firstLine(containing: "listening on ")
        guard let line, let range = line.range(of: "listening on ") else {
            throw SadeProcessError.notListening(platform.errors.text)
        }
        return (platform, String(line[range.upperBound...]).trimmingCharacters(in: .whitespaces))
    }

    /// Starts the tests' Python (``TestTools/python``) on `script arguments…` (a test
    /// server) and waits for the line `listening PORT` it prints when ready; returns it
    /// with the port. `modules` are the Python packages the script needs.
    public static func pythonServer(_ script: URL, _ arguments: [String], modules: [String] = []) async throws -> (SadeProcess, port: Int) {
        try TestTools.requirePython(modules: modules)
        let server = try SadeProcess([script.path] + arguments, executable: TestTools.python)
        guard let line = await server.output.firstLine(containing: "listening "),
            let port = Int(line.split(separator: " ").last ?? "")
        else { throw SadeProcessError.notListening(server.errors.text) }
        return (server, port)
    }

    /// The first line of standard output containing `needle`, once printed; `nil` if
    /// the process ends first.
    public func line(containing needle: String) async -> String? {
        await output.firstLine(containing: needle)
    }

    /// Sends `signal` (SIGINT, SIGTERM, SIGKILL) to the process.
    public func signal(_ number: Int32) {
        kill(process.processIdentifier, number)
    }

    /// Sends `signal` to the process group the process leads (a server that made itself
    /// a group leader, with worker processes of its own).
    public func signalGroup(_ number: Int32) {
        kill(-process.processIdentifier, number)
    }

    /// Waits for the process to end; returns its exit status and what it printed.
    public func finish() async -> (status: Int32, output: String, error: String) {
        await output.closed()
        await errors.closed()
        process.waitUntilExit()
        return (process.terminationStatus, output.text, errors.text)
    }

    /// Runs the tests' Python on `arguments` to the end, after checking it can import
    /// `modules`.
    public static func python(_ arguments: [String], modules: [String]) async throws -> (status: Int32, output: String, error: String) {
        try TestTools.requirePython(modules: modules)
        return try await SadeProcess(arguments, executable: TestTools.python).finish()
    }

    /// Runs `sade` with `arguments` (and `input` as its standard input) to the end.
    public static func run(_ arguments: [String], input: String? = nil) async throws -> (status: Int32, output: String, error: String) {
        try await SadeProcess(arguments, input: input).finish()
    }

    /// Kills the process if it still runs (at the end of a test).
    public func terminate() {
        if process.isRunning { process.terminate() }
    }
}

public enum SadeProcessError: Error {
    case notListening(String)
}

/// Reads a pipe on a thread of its own, keeping everything and waking up waiters.
final class OutputCollector: Sendable {
    private let state = Mutex(State())

    private struct State {
        var text = ""
        var isClosed = false
        var lineWaiters: [(id: Int, needle: String, continuation: CheckedContinuation<String?, Never>)] = []
        var nextWaiter = 0
        var closeWaiters: [CheckedContinuation<Void, Never>] = []
    }

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                append(String(decoding: data, as: UTF8.self))
            }
            close()
        }
    }

    var text: String { state.withLock { $0.text } }

    private func append(_ chunk: String) {
        let ready = state.withLock { state -> [(CheckedContinuation<String?, Never>, String)] in
            state.text += chunk
            var ready: [(CheckedContinuation<String?, Never>, String)] = []
            state.lineWaiters.removeAll { waiter in
                guard let line = Self.completeLine(in: state.text, containing: waiter.needle) else { return false }
                ready.append((waiter.continuation, line))
                return true
            }
            return ready
        }
        for (continuation, line) in ready { continuation.resume(returning: line) }
    }

    private func close() {
        let (lines, closes) = state.withLock { state in
            state.isClosed = true
            defer { state.lineWaiters = []; state.closeWaiters = [] }
            return (state.lineWaiters.map(\.continuation), state.closeWaiters)
        }
        for continuation in lines { continuation.resume(returning: nil) }
        for continuation in closes { continuation.resume() }
    }

    /// The first complete line containing `needle`; `nil` if the pipe closes first or
    /// the waiting task is cancelled (a test past its time limit fails instead of hanging).
    func firstLine(containing needle: String) async -> String? {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let found = state.withLock { state -> String?? in
                    if let line = Self.completeLine(in: state.text, containing: needle) { return .some(line) }
                    if state.isClosed || Task.isCancelled { return .some(nil) }
                    state.lineWaiters.append((id, needle, continuation))
                    return .none
                }
                if let found { continuation.resume(returning: found) }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                state.lineWaiters.firstIndex { $0.id == id }.map { state.lineWaiters.remove(at: $0).continuation }
            }
            waiter?.resume(returning: nil)
        }
    }

    /// Waits until the pipe is closed (the process ended).
    func closed() async {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state in
                if state.isClosed { return true }
                state.closeWaiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    private static func completeLine(in text: String, containing needle: String) -> String? {
        text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().first { $0.contains(needle) }.map(String.init)
    }
}
