/// An action that runs once, given as a closure (SADE4Health's `OneShotAction`).
public struct OneShotAction: Action {
    /// The action's name.
    public let name: String
    /// Must hold before the action runs.
    public let precondition: Condition?
    /// Must hold after the action ran.
    public let postcondition: Condition?
    private let body: @Sendable (ActionContext) async throws -> Void

    /// Creates a one-shot action running `body`.
    public init(
        _ name: String = "one-shot",
        precondition: Condition? = nil,
        postcondition: Condition? = nil,
        _ body: @escaping @Sendable (ActionContext) async throws -> Void
    ) {
        self.name = name
        self.precondition = precondition
        self.postcondition = postcondition
        self.body = body
    }

    /// Runs the closure.
    public func runAction(_ context: ActionContext) async throws { try await body(context) }
}
