/// A way of achieving a goal: an ordered list of actions, tried when its context
/// condition holds (SADE4Health's `Plan`, part of the agent's intentions).
public struct Plan: Sendable {
    /// The plan's name, unique within its goal.
    public let name: String
    /// Higher priorities are tried first by the default plan selection.
    public let priority: Int
    /// When set, the plan is only applicable while this condition holds.
    public let context: Condition?
    /// The actions, run one after the other.
    public let actions: [any Action]
    /// Where the plan is in its execution.
    public var status: PlanStatus = .waiting

    /// Creates a plan from its actions.
    public init(_ name: String = "plan", priority: Int = 0, context: Condition? = nil, actions: [any Action]) {
        self.name = name
        self.priority = priority
        self.context = context
        self.actions = actions
    }

    /// Creates a plan whose actions are listed in a builder block.
    public init(
        _ name: String = "plan", priority: Int = 0, context: Condition? = nil,
        @ListBuilder<any Action> actions: () -> [any Action]
    ) {
        self.init(name, priority: priority, context: context, actions: actions())
    }

    /// Whether the plan may be tried now: it has no context or its context holds.
    public func isApplicable(for beliefs: BeliefBase) -> Bool {
        context?.holds(for: beliefs) ?? true
    }
}

/// The execution status of a plan.
public enum PlanStatus: String, Hashable, Sendable, Codable {
    /// Not started, reset when its goal was adopted again, or interrupted.
    case waiting
    /// Its actions are running.
    case executing
    /// All its actions ran successfully.
    case achieved
    /// An action threw or a pre- or post-condition did not hold.
    case failed
}
