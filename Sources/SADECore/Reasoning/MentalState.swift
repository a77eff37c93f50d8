import SADEACL

/// The part of an agent that the BDI reasoning cycle works on: beliefs, goals
/// (desires, and through their plans, intentions), and what started the cycle.
public struct MentalState: Sendable {
    /// What the agent believes.
    public var beliefs: BeliefBase
    /// The adopted goals, in adoption order.
    public var goals: [Goal]
    /// Goals proposed since the last cycle, adopted by option generation.
    public var newGoals: [Goal] = []
    /// What started the current cycle (``ReasoningTrigger/explicit`` between cycles,
    /// so that an agent does not keep its last message alive).
    public internal(set) var trigger: ReasoningTrigger = .explicit
    /// Platform time at the start of the current cycle.
    public internal(set) var now: Duration = .zero

    /// Creates a mental state.
    public init(beliefs: BeliefBase = BeliefBase(), goals: [Goal] = []) {
        self.beliefs = beliefs
        self.goals = goals
    }

    /// The index of the goal called `name`.
    public func goalIndex(named name: String) -> Int? {
        goals.firstIndex { $0.name == name }
    }
}

/// What started a reasoning cycle.
public enum ReasoningTrigger: Hashable, Sendable {
    /// The agent started (with `runBDICycleOnStart`) or resumed.
    case start
    /// A message was received. (Boxed: an agent's idle footprint stays small.)
    indirect case message(ACLMessage)
    /// One or more beliefs changed outside a cycle.
    case beliefChange
    /// An intention finished (its plans succeeded or all failed).
    case intentionFinished(goal: String)
    /// A goal was adopted, suspended or resumed, or the cycle was run explicitly.
    case explicit
}
