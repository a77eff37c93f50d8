import Dispatch
import Foundation
import Synchronization

/// Waits for SIGINT or SIGTERM, so a long-running command can shut down gracefully.
enum TerminationSignal {
    /// Suspends until the process receives SIGINT or SIGTERM; returns its name.
    @MainActor static func wait() async -> String {
        await withCheckedContinuation { continuation in
            let once = OnceFlag()
            for (number, name) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
                source.setEventHandler {
                    if once.claim() { continuation.resume(returning: name) }
                }
                source.resume()
                sources.append(source)
            }
        }
    }

    /// Kept alive for the life of the process; touched only on the main actor.
    @MainActor private static var sources: [any DispatchSourceSignal] = []
}

/// True exactly once, from any thread.
private final class OnceFlag: Sendable {
    private let claimed = Mutex(false)
    func claim() -> Bool {
        claimed.withLock { claimed in
            defer { claimed = true }
            return !claimed
        }
    }
}
