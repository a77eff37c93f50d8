/// Step 4 of the BDI cycle: choose the plans an intention tries, in order. The
/// intention runs them one by one until one succeeds.
public protocol PlanSelectionStrategy: Sendable {
    /// The plans to try for `goal`, first to last.
    func selectPlans(for goal: Goal, in state: MentalState) -> [Plan]
}

/// The seed's default: the goal's plans in priority order (highest first, ties in
/// declaration order). A plan's context is checked again just before it runs.
public struct DefaultPlanSelectionStrategy: PlanSelectionStrategy {
    /// Creates the default plan selection.
    public init() {}

    /// All plans, by descending priority.
    public func selectPlans(for goal: Goal, in state: MentalState) -> [Plan] {
        goal.plans.enumerated()
            .sorted { ($0.element.priority, -$0.offset) > ($1.element.priority, -$1.offset) }
            .map(\.element)
    }
}
