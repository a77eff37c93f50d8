/// An action that runs every `interval` until stopped, given as a closure
/// (SADE4Health's `CyclicAction`). While it runs, its plan and goal stay `executing`.
///
/// The action stops when its body calls ``ActionContext/stopRepeating()`` (its plan
/// then goes on to the next action) or when its intention is cancelled because the
/// agent or goal was suspended or stopped.
public struct CyclicAction: Action {
    /// The action's name.
    public let name: String
    /// The time between two runs.
    public let interval: Duration
    /// Checked before each run; a run is skipped while it does not hold.
    public let precondition: Condition?
    /// Checked after each run; the action fails when it does not hold.
    public let postcondition: Condition?
    private let body: @Sendable (ActionContext) async throws -> Void

    /// Creates a cyclic action running `body` every `interval`.
    public init(
        _ name: String = "cyclic",
        every interval: Duration,
        precondition: Condition? = nil,
        postcondition: Condition? = nil,
        _ body: @escaping @Sendable (ActionContext) async throws -> Void
    ) {
        self.name = name
        self.interval = interval
        self.precondition = precondition
        self.postcondition = postcondition
        self.body = body
    }

    /// Repeats every ``interval``.
    public var schedule: ActionSchedule { .every(interval) }

    /// Runs the closure once (one tick).
    public func runAction(_ context: ActionContext) async throws { try await body(context) }
}
