import SADEACL

/// An agent's mind and body at one moment, as an introspector shows it (JADE's
/// Introspector, Jason's mind inspector): beliefs with their values, goals with their
/// status and plans, behaviours, services, mailbox and counters.
public struct AgentSnapshot: Hashable, Sendable, Codable {
    /// A belief: its value as text and its Swift type.
    public struct Belief: Hashable, Sendable, Codable {
        public let name: String
        public let value: String
        public let type: String
        /// When it expires, in seconds on the platform clock, if it does.
        public let expiresAt: Double?
    }

    /// A plan of a goal, with its status.
    public struct Plan: Hashable, Sendable, Codable {
        public let name: String
        public let status: PlanStatus
    }

    /// A goal: its kind (perform, achieve, maintain), status, whether an intention
    /// pursues it now, and its plans.
    public struct Goal: Hashable, Sendable, Codable {
        public let name: String
        public let kind: String
        public let status: GoalStatus
        public let isIntended: Bool
        /// The action its intention runs now, if any.
        public let action: String?
        public let plans: [Plan]
    }

    /// The agent's name on its platform.
    public let name: String
    /// Its full name, `name@platform`.
    public let identifier: String
    public let state: AgentState
    public let beliefs: [Belief]
    public let goals: [Goal]
    /// The behaviours not yet finished, by name.
    public let behaviours: [String]
    /// The services it publishes in the DF while active.
    public let services: [ServiceDescription]
    /// Messages accepted and not yet handled.
    public let mailboxDepth: Int
    /// Messages it sent since it was made (a message to several receivers once).
    public let messagesSent: Int
    /// Messages accepted into its mailbox since it was made (failure notices included).
    public let messagesReceived: Int
    /// Conversations it initiated and still runs (requests, contract nets…).
    public let conversations: Int
    /// The types of its reasoning cycle's four strategies.
    public let strategies: [String: String]
}

/// One run of the reasoning cycle as an introspector shows it (``AgentEvent/reasoned(_:)``):
/// why it ran, the goals after option generation, the ones deliberation chose and the
/// plans selected for each, with the strategies that decided.
public struct ReasoningRecord: Hashable, Sendable, Codable {
    /// A goal after option generation.
    public struct Option: Hashable, Sendable, Codable {
        public let goal: String
        public let status: GoalStatus
    }

    /// Why the cycle ran: start, message (its performative), belief change, intention end, explicit.
    public let trigger: String
    /// Every goal after option generation, with its status.
    public let options: [Option]
    /// The goals deliberation chose to pursue now.
    public let chosen: [String]
    /// The goals deliberation left waiting (by default: no plan applicable now).
    public let notChosen: [String]
    /// The plans selected for each chosen goal that got an intention, in the order tried.
    public let selected: [String: [String]]
    /// The chosen goals plan selection gave no plan for (they failed).
    public let withoutPlan: [String]
    /// The types of the four strategies that decided.
    public let strategies: [String: String]
}

extension Agent {
    /// The agent's mind and body now.
    public func snapshot() -> AgentSnapshot {
        let mailbox = mailbox.withLock { (depth: $0.depth, sent: $0.sent, received: $0.received) }
        return AgentSnapshot(
            name: name, identifier: identifier.name, state: state,
            beliefs: mind.beliefs.all.map { entry in
                AgentSnapshot.Belief(
                    name: entry.name, value: String(describing: entry.value), type: String(describing: type(of: entry.value)),
                    expiresAt: entry.expiresAt?.seconds)
            },
            goals: mind.goals.map { goal in
                AgentSnapshot.Goal(
                    name: goal.name, kind: goal.kind.label, status: goal.status, isIntended: goal.isIntended,
                    action: runningActions[goal.name]?.name,
                    plans: goal.plans.map { AgentSnapshot.Plan(name: $0.name, status: $0.status) })
            },
            behaviours: behaviours.keys.sorted().compactMap { behaviours[$0]?.behaviour.name },
            services: services, mailboxDepth: mailbox.depth, messagesSent: mailbox.sent, messagesReceived: mailbox.received,
            conversations: conversations.count, strategies: strategies.names)
    }
}

extension Goal.Kind {
    /// `perform`, `achieve (condition)` or `maintain (condition)`.
    var label: String {
        switch self {
        case .perform: "perform"
        case .achieve(let condition): "achieve (\(condition.description))"
        case .maintain(let condition): "maintain (\(condition.description))"
        }
    }
}

extension ReasoningTrigger {
    /// A word for the introspector.
    var label: String {
        switch self {
        case .start: "start"
        case .message(let message): "message (\(message.performative))"
        case .beliefChange: "belief change"
        case .intentionFinished(let goal): "intention of \(goal) finished"
        case .explicit: "explicit"
        }
    }
}
