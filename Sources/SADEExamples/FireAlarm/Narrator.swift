import Foundation
import SADECore

/// Prints the story of a demo, one line per step, stamped with platform time:
/// `[   1.003s] Alarmed: fire detected in the kitchen`.
public struct Narrator: Sendable {
    private let clock: PlatformClock
    private let write: @Sendable (String) -> Void

    /// Creates a narrator that stamps lines with `clock` and hands them to `write`.
    public init(clock: PlatformClock, write: @escaping @Sendable (String) -> Void) {
        self.clock = clock
        self.write = write
    }

    /// Tells one step: who did what.
    public func say(_ who: String, _ what: String) {
        let seconds = clock.elapsed.seconds
        write(String(format: "[%8.3fs] ", seconds) + "\(who): \(what)")
    }
}
