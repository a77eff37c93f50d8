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
///   `failed` (an achieve or maintain goal also needs its condition to hold).
/// - An achieve goal is `achieved` as soon as its condition holds — before it ran,
///   or while its plan still runs (the agent then drops the intention).
/// - A maintain goal is adopted again (`waiting`, plans reset) when its condition
///   stops holding after it held — also when that happens while its intention still
///   runs — or after the goal was achieved. A maintain goal whose plans did not
///   restore the condition is `failed`; it is tried again when the agent learns
///   something (a message or a belief change), never in a loop by itself.
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
            review(&state.goals[index], beliefs: state.beliefs, trigger: state.trigger)
        }
    }

    private func review(_ goal: inout Goal, beliefs: BeliefBase, trigger: ReasoningTrigger) {
        guard goal.status != .suspended else { return }
        let holds = goal.condition?.holds(for: beliefs)
        let wasHeld = goal.conditionHeld
        goal.conditionHeld = holds
        if goal.isIntended {
            guard holds == true else { return }
            goal.conditionHeldDuringIntention = true
            if case .achieve = goal.kind { goal.status = .achieved }
            return
        }
        if goal.status == .executing {  // its intention has just ended
            let planSucceeded = goal.plans.contains { $0.status == .achieved }
            switch goal.kind {
            case .perform:
                goal.status = planSucceeded ? .achieved : .failed
            case .achieve:
                goal.status = planSucceeded && holds == true ? .achieved : .failed
            case .maintain:
                if planSucceeded && holds == true {
                    goal.status = .achieved
                } else if planSucceeded && goal.conditionHeldDuringIntention {
                    goal.readopt()  // restored, then broken again while the plan finished
                    return
                } else {
                    goal.status = .failed
                }
            }
        }
        switch goal.kind {
        case .perform:
            break
        case .achieve:
            if holds == true { goal.status = .achieved }
        case .maintain:
            if holds == true {
                if goal.status == .waiting || goal.status == .failed { goal.status = .achieved }
            } else if goal.status == .achieved || wasHeld == true || (goal.status == .failed && trigger.bringsNews) {
                goal.readopt()
            }
        }
    }
}

extension ReasoningTrigger {
    /// Whether the cycle was started by new information: a message or a belief change.
    var bringsNews: Bool {
        switch self {
        case .message, .beliefChange: true
        case .start, .intentionFinished, .explicit: false
        }
    }
}
