/// The time source of a platform: any `Clock` measured in `Duration`, type-erased so
/// that agents, actions and behaviours share one clock that tests can replace with a
/// ``ManualClock``.
///
/// Time is read as the ``elapsed`` duration since the platform's clock was created,
/// which gives every clock, real or manual, one comparable instant type.
public struct PlatformClock: Sendable {
    private let readElapsed: @Sendable () -> Duration
    private let sleepFor: @Sendable (Duration) async throws -> Void

    /// Wraps `clock`; time zero is now.
    public init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let origin = clock.now
        readElapsed = { origin.duration(to: clock.now) }
        sleepFor = { duration in
            try await clock.sleep(until: clock.now.advanced(by: duration), tolerance: nil)
        }
    }

    /// The real, monotonic clock of the machine.
    public static var continuous: PlatformClock { PlatformClock(ContinuousClock()) }

    /// Time since this clock was created.
    public var elapsed: Duration { readElapsed() }

    /// Suspends the calling task for `duration`; throws `CancellationError` if the
    /// task is cancelled first.
    public func sleep(for duration: Duration) async throws {
        try await sleepFor(duration)
    }
}
