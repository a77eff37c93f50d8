import Foundation
import SADECore

/// The outbox's sense of time: a platform clock to wait on and the wall-clock date
/// of its start, so that tests drive retries and escalations with a `ManualClock`.
public struct OutboxClock: Sendable {
    /// What the outbox waits on.
    public let clock: PlatformClock
    /// The date at the clock's time zero.
    public let origin: Date

    /// Combines a platform clock with the date its time zero stands for.
    public init(clock: PlatformClock, origin: Date) {
        self.clock = clock
        self.origin = origin
    }

    /// The machine's clocks.
    public static var system: OutboxClock { OutboxClock(clock: .continuous, origin: Date()) }

    /// Now.
    public var now: Date { origin.addingTimeInterval(clock.elapsed.seconds) }

    /// Waits until `date`; returns at once if it has passed. Throws on cancellation.
    public func sleep(until date: Date) async throws {
        let seconds = date.timeIntervalSince(now)
        if seconds > 0 { try await clock.sleep(for: .milliseconds(Int64((seconds * 1000).rounded(.up)))) }
    }
}

