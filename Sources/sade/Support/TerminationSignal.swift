import Dispatch
import Foundation

/// Waits for SIGINT or SIGTERM, so a long-running command can shut down gracefully.
enum TerminationSignal {
    /// Starts catching SIGINT and SIGTERM: one that arrives from now on ends the next
    /// ``wait()`` (a command that announces itself before it waits calls this first, or a
    /// signal sent right after the announcement would kill it).
    @MainActor static func install() {
        guard sources.isEmpty else { return }
        for (number, name) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
            source.setEventHandler {
                MainActor.assumeIsolated {
                    guard received == nil else { return }
                    received = name
                    waiting?.resume(returning: name)
                    waiting = nil
                }
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Suspends until the process receives SIGINT or SIGTERM (or returns at once if one
    /// came since ``install()``); returns its name.
    @MainActor static func wait() async -> String {
        install()
        if let received { return received }
        return await withCheckedContinuation { continuation in waiting = continuation }
    }

    /// Kept alive for the life of the process; touched only on the main actor.
    @MainActor private static var sources: [any DispatchSourceSignal] = []
    @MainActor private static var received: String?
    @MainActor private static var waiting: CheckedContinuation<String, Never>?
}
