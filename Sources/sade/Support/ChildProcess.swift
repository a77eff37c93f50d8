import Foundation
import Synchronization

/// A process `sade` starts: the bench's `sade platform` and Python peers, the issue-track
/// demo's employees. Its standard output is collected on a thread of its own.
final class ChildProcess: Sendable {
    private let process: Process
    /// The child's standard input when kept open: it sees end-of-file once this process
    /// ends, however it ends.
    private let input: Pipe?
    private let output = Mutex(ChildOutput())

    private struct ChildOutput {
        var text = ""
        var isClosed = false
        var waiter: (needle: String, continuation: CheckedContinuation<String?, Never>)?
    }

    /// The running `sade` executable itself (`/proc/self/exe` on Linux, where the path it
    /// was started by may be relative; Foundation's idea of it elsewhere).
    static var sade: URL {
        if FileManager.default.fileExists(atPath: "/proc/self/exe") { return URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath() }
        return Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
    }

    /// Starts `executable` with `arguments`; standard error goes to ours, or nowhere.
    /// With `keepInputOpen`, the child's standard input is a pipe that closes when this
    /// process ends, so a child can notice that its parent is gone.
    init(
        _ executable: URL, _ arguments: [String], environment: [String: String]? = nil, silenceErrors: Bool = false,
        keepInputOpen: Bool = false
    ) throws {
        let process = Process()
        input = keepInputOpen ? Pipe() : nil
        if let input { process.standardInput = input }
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        let pipe = Pipe()
        process.standardOutput = pipe
        if silenceErrors { process.standardError = FileHandle.nullDevice }
        try process.run()
        self.process = process
        let handle = pipe.fileHandleForReading
        Thread.detachNewThread { [self] in
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                received(String(decoding: data, as: UTF8.self), closed: false)
            }
            received("", closed: true)
        }
    }

    private func received(_ chunk: String, closed: Bool) {
        let wake = output.withLock { output -> (CheckedContinuation<String?, Never>, String?)? in
            output.text += chunk
            output.isClosed = output.isClosed || closed
            guard let waiter = output.waiter else { return nil }
            if let line = Self.line(in: output.text, containing: waiter.needle) {
                output.waiter = nil
                return (waiter.continuation, line)
            }
            if output.isClosed {
                output.waiter = nil
                return (waiter.continuation, nil)
            }
            return nil
        }
        if let (continuation, line) = wake { continuation.resume(returning: line) }
    }

    /// The first complete output line containing `needle`; `nil` if the process ends first.
    func line(containing needle: String) async -> String? {
        await withCheckedContinuation { continuation in
            let found = output.withLock { output -> String?? in
                if let line = Self.line(in: output.text, containing: needle) { return .some(line) }
                if output.isClosed { return .some(nil) }
                output.waiter = (needle, continuation)
                return .none
            }
            if let found { continuation.resume(returning: found) }
        }
    }

    /// Waits for the process to end; returns its exit status and its whole output.
    func finish() async -> (status: Int32, output: String) {
        while !output.withLock({ $0.isClosed }) { try? await Task.sleep(for: .milliseconds(20)) }
        while process.isRunning { try? await Task.sleep(for: .milliseconds(20)) }
        return (process.terminationStatus, output.withLock { $0.text })
    }

    /// The process id.
    var processIdentifier: Int32 { process.processIdentifier }

    /// Sends `signal` (SIGTERM, SIGKILL) to the process if it still runs.
    func signal(_ number: Int32) {
        if process.isRunning { kill(process.processIdentifier, number) }
    }

    /// Asks the process to end (SIGTERM) if it still runs.
    func terminate() {
        if process.isRunning { process.terminate() }
    }

    private static func line(in text: String, containing needle: String) -> String? {
        text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().first { $0.contains(needle) }.map(String.init)
    }
}

extension ChildProcess {
    /// `sade serve --demo` on a free port over `data`, without a rate limit (the benchmarks'
    /// server), once it listens; with its base URL.
    static func demoServer(data: TemporaryDirectory) async throws -> (ChildProcess, url: String) {
        let server = try ChildProcess(
            ChildProcess.sade, ["serve", "--demo", "--port", "0", "--data", data.path, "--rate-limit", "1000000"], silenceErrors: true)
        guard let line = await server.line(containing: "listening on http://"), let url = line.split(separator: " ").last else {
            server.terminate()
            throw BenchError.peerFailed("sade serve did not start listening")
        }
        return (server, String(url))
    }
}
