import SADEACL

/// Something observable that happened inside an agent; see ``Agent/events()``.
public enum AgentEvent: Hashable, Sendable {
    /// The agent moved to a new life-cycle state.
    case stateChanged(AgentState)
    /// A belief was set, changed or removed.
    case beliefChanged(String)
    /// A goal's status changed.
    case goalStatusChanged(goal: String, status: GoalStatus)
    /// A plan's status changed.
    case planStatusChanged(goal: String, plan: String, status: PlanStatus)
    /// A message was taken from the mailbox and handled.
    case messageReceived(ACLMessage)
    /// An action, behaviour or message handler threw; the agent carried on.
    case failed(activity: String, reason: String)
    /// A behaviour finished and was removed.
    case behaviourFinished(String)
    /// A reasoning cycle ran and decided (made only while someone observes).
    case reasoned(ReasoningRecord)
}
