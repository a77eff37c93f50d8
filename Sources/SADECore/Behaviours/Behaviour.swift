/// Something an agent does outside the BDI cycle (iMobile's `Behavior`, JADE's
/// behaviours): started with the agent, run in a task of its own while it runs,
/// removed when it finishes.
public protocol Behaviour: Sendable {
    /// The behaviour's name, for logs and events.
    var name: String { get }
    /// Does the behaviour's work; returning finishes the behaviour.
    func action(_ context: ActionContext) async throws
}

extension Behaviour {
    /// By default a behaviour is named after its type.
    public var name: String { String(describing: Self.self) }
}

/// A behaviour that runs its closure once (iMobile's `OneShotBehavior`).
public struct OneShotBehaviour: Behaviour {
    /// The behaviour's name.
    public let name: String
    private let body: @Sendable (ActionContext) async throws -> Void

    /// Creates a one-shot behaviour.
    public init(_ name: String = "one-shot", _ body: @escaping @Sendable (ActionContext) async throws -> Void) {
        self.name = name
        self.body = body
    }

    /// Runs the closure once.
    public func action(_ context: ActionContext) async throws { try await body(context) }
}

/// A behaviour that runs its closure in a loop, waiting `interval` before each run
/// (iMobile's `CyclicBehavior`), until it calls ``ActionContext/stopRepeating()``
/// or the agent stops.
public struct CyclicBehaviour: Behaviour {
    /// The behaviour's name.
    public let name: String
    /// The time to wait before each run.
    public let interval: Duration
    private let body: @Sendable (ActionContext) async throws -> Void

    /// Creates a cyclic behaviour.
    public init(
        _ name: String = "cyclic", every interval: Duration,
        _ body: @escaping @Sendable (ActionContext) async throws -> Void
    ) {
        self.name = name
        self.interval = interval
        self.body = body
    }

    /// Runs the closure every ``interval``.
    public func action(_ context: ActionContext) async throws {
        try await context.repeatEvery(interval) { context, _ in try await body(context) }
    }
}

/// A behaviour that runs every `period` and is told which tick this is, starting at
/// 1 (JADE's `TickerBehaviour`).
public struct TickerBehaviour: Behaviour {
    /// The behaviour's name.
    public let name: String
    /// The time between ticks.
    public let period: Duration
    private let onTick: @Sendable (ActionContext, Int) async throws -> Void

    /// Creates a ticker.
    public init(
        _ name: String = "ticker", period: Duration,
        onTick: @escaping @Sendable (ActionContext, _ tick: Int) async throws -> Void
    ) {
        self.name = name
        self.period = period
        self.onTick = onTick
    }

    /// Calls `onTick` every ``period`` with the tick number.
    public func action(_ context: ActionContext) async throws {
        try await context.repeatEvery(period, onTick)
    }
}

/// A behaviour that runs its closure once, after `delay` (JADE's `WakerBehaviour`).
public struct WakerBehaviour: Behaviour {
    /// The behaviour's name.
    public let name: String
    /// How long to wait before waking.
    public let delay: Duration
    private let onWake: @Sendable (ActionContext) async throws -> Void

    /// Creates a waker.
    public init(
        _ name: String = "waker", after delay: Duration,
        onWake: @escaping @Sendable (ActionContext) async throws -> Void
    ) {
        self.name = name
        self.delay = delay
        self.onWake = onWake
    }

    /// Sleeps for ``delay`` on the platform clock, then runs `onWake`.
    public func action(_ context: ActionContext) async throws {
        try await context.sleep(for: delay)
        try await onWake(context)
    }
}
