/// Step 3 of the BDI cycle, the filter: choose which goals become intentions now.
public protocol DeliberationStrategy: Sendable {
    /// Marks the chosen goals `executing` and returns their names, in the order
    /// their intentions should start.
    func filter(_ state: inout MentalState) -> [String]
}

/// The seed's default: every `waiting` goal with an applicable plan is executed;
/// a waiting goal none of whose plans is applicable now keeps waiting.
public struct DefaultDeliberationStrategy: DeliberationStrategy {
    /// Creates the default deliberation.
    public init() {}

    /// Picks the waiting goals that can be pursued now.
    public func filter(_ state: inout MentalState) -> [String] {
        var chosen: [String] = []
        for index in state.goals.indices where state.goals[index].status == .waiting {
            let goal = state.goals[index]
            guard goal.plans.contains(where: { $0.isApplicable(for: state.beliefs) }) else { continue }
            state.goals[index].status = .executing
            chosen.append(goal.name)
        }
        return chosen
    }
}
