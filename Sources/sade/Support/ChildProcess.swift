import Foundation
import SADEProcess

extension ChildProcess {
    /// The running `sade` executable itself (`/proc/self/exe` on Linux, where the path it
    /// was started by may be relative; Foundation's idea of it elsewhere).
    static var sade: URL {
        if FileManager.default.fileExists(atPath: "/proc/self/exe") { return URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath() }
        return Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
    }

    /// `sade serve --demo` on a free port over `data`, without a rate limit (the benchmarks'
    /// server), once it listens; with its base URL.
    static func demoServer(data: TemporaryDirectory) async throws -> (ChildProcess, url: String) {
        let server = try ChildProcess(
            ChildProcess.sade, ["serve", "--demo", "--port", "0", "--data", data.path, "--rate-limit", "1000000"], errors: .discarded)
        guard let line = await server.line(containing: "listening on http://"), let url = line.split(separator: " ").last else {
            server.terminate()
            throw BenchError.peerFailed("sade serve did not start listening")
        }
        return (server, String(url))
    }
}
