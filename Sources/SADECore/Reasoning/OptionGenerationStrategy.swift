/// Step 2 of the BDI cycle: generate the options — adopt new goals and review the
/// status of existing ones.
public protocol OptionGenerationStrategy: Sendable {
    /// Updates `state.goals`, adopting `state.newGoals`.
    func generateOptions(_ state: inout MentalState)
}

/// The seed's default: adopts new goals and updates every goal's status from its
/// plans and, for achieve and maintain goals, from its condition.
///
/// - A goal whose intention has ended is `achieved` if one of its plans was, else
///   `failed` (an achieve goal also needs its condition to hold).
/// - An achieve goal whose condition holds is `achieved`, even before it ran.
/// - A maintain goal is adopted again (`waiting`, plans reset) when its condition
///   stops holding after it held, or after the goal was achieved.
public struct DefaultOptionGenerationStrategy: OptionGenerationStrategy {
    /// Creates the default option generation.
    public init() {}

    /// Adopts new goals and reviews statuses.
    public func generateOptions(_ state: inout MentalState) {
        if !state.newGoals.isEmpty {
            state.goals.append(contentsOf: state.newGoals)
            state.newGoals.removeAll()
        }
        for index in state.goals.indices {
            review(&state.goals[index], beliefs: state.beliefs)
        }
    }

    private func review(_ goal: inout Goal, beliefs: BeliefBase) {
        guard goal.status != .suspended else { return }
        if goal.status == .executing, !goal.isIntended {
            let planSucceeded = goal.plans.contains { $0.status == .achieved }
            let conditionHolds = goal.condition.map { $0.holds(for: beliefs) } ?? true
            goal.status = planSucceeded && conditionHolds ? .achieved : .failed
        }
        switch goal.kind {
        case .perform:
            break
        case .achieve(let condition):
            if !goal.isIntended, goal.status != .achieved, condition.holds(for: beliefs) {
                goal.status = .achieved
            }
        case .maintain(let condition):
            let holds = condition.holds(for: beliefs)
            let wasHeld = goal.conditionHeld
            goal.conditionHeld = holds
            guard !goal.isIntended else { return }
            if holds {
                if goal.status == .waiting || goal.status == .failed { goal.status = .achieved }
            } else if goal.status == .achieved || wasHeld == true {
                goal.readopt()
            }
        }
    }
}
