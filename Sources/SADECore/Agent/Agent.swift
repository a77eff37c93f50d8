import Logging
import SADEACL
import Synchronization

/// A software agent: beliefs, goals with plans, a pluggable BDI reasoning cycle,
/// behaviours, and a mailbox (SADE4Health's `Agent`, iMobile's `Agent`).
///
/// An agent is an actor. It owns no thread and no endless task: a received message
/// is handled on the agent's own executor (an ``AgentExecutor`` on the platform's
/// ``AgentScheduler``) without creating a task, and tasks exist only while an
/// intention or behaviour is running, so an idle agent costs well under a kilobyte.
///
/// ```swift
/// let platform = Environment(name: "home")
/// let greeter = Agent("Greeter", on: platform) {
///     MessageHandler.on(.request) { agent, message in
///         agent.send(message.makeReply(.inform, content: "hello"))
///     }
/// }
/// try await greeter.start()
/// ```
public actor Agent {
    /// The agent's name, unique on its platform.
    public nonisolated let name: String
    /// The agent's identifier, `name@platform`.
    public nonisolated let identifier: AgentIdentifier
    /// The platform the agent lives on.
    public nonisolated let environment: Environment
    /// Whether the BDI cycle runs once when the agent starts.
    public nonisolated let runBDICycleOnStart: Bool
    /// The four strategies of the agent's reasoning cycle.
    public nonisolated let strategies: ReasoningStrategies

    /// The agent's life-cycle state.
    public internal(set) var state: AgentState = .initiated
    /// Beliefs and goals, worked on by the reasoning cycle.
    var mind: MentalState
    /// Handlers consulted for every received message, in order.
    var handlers: [MessageHandler]
    /// Services published in the platform's yellow pages while the agent is active.
    let services: [ServiceDescription]
    /// Running intentions, one per goal being pursued.
    var intentions: [String: Task<Void, Never>] = [:]
    /// The action each intention runs now, by goal, and which run of an action it is
    /// (for ``snapshot()``).
    var runningActions: [String: (run: Int, name: String)] = [:]
    var nextActionRun = 0
    /// Goals put to `suspended` by ``suspend()``, resumed by ``resume()``.
    var goalsSuspendedWithAgent: Set<String> = []
    /// Behaviours not yet finished, by id, with their task while they run.
    var behaviours: [Int: (behaviour: any Behaviour, task: Task<Void, Never>?)] = [:]
    var nextBehaviourID = 0
    /// Set while message handlers run, so belief changes wait for the message's cycle.
    var isHandlingMessage = false
    /// Observers of ``events()``.
    var observers: [Int: AsyncStream<AgentEvent>.Continuation] = [:]
    var nextObserverID = 0
    /// Conversations this agent initiated and still runs; see Agent+Conversations.swift.
    var conversations = ConversationTable()
    /// Messages accepted for the agent and not handled yet.
    nonisolated let mailbox = Mutex(Mailbox())
    /// The batch being handled, swapped with the mailbox's buffer so that neither
    /// allocates for every message.
    var drainBuffer: [ACLMessage] = []
    /// Runs the agent's jobs and mailbox drains, one at a time.
    nonisolated let executor: AgentExecutor

    /// The agent's executor: its own serial queue on the platform's scheduler.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Creates an agent with the seed's parameters; everything but the name and the
    /// platform has a default.
    ///
    /// - Parameters:
    ///   - name: unique on the platform; no `@` or spaces.
    ///   - environment: the platform the agent will be registered on when started.
    ///   - beliefs: what the agent knows at start.
    ///   - goals: the agent's goals, each with its plans.
    ///   - strategies: the BDI cycle's strategies; the seed's defaults if omitted.
    ///   - runBDICycleOnStart: run the reasoning cycle as soon as the agent starts
    ///     (otherwise it first runs when a message arrives or a belief changes).
    ///   - behaviours: behaviours started with the agent, outside the BDI cycle.
    ///   - handlers: reactions to received messages.
    ///   - services: services published in the yellow pages while the agent is active.
    public init(
        name: String,
        environment: Environment,
        beliefs: BeliefBase = BeliefBase(),
        goals: [Goal] = [],
        strategies: ReasoningStrategies = .default,
        runBDICycleOnStart: Bool = false,
        behaviours: [any Behaviour] = [],
        handlers: [MessageHandler] = [],
        services: [ServiceDescription] = []
    ) {
        self.name = name
        self.identifier = AgentIdentifier(name: "\(name)@\(environment.name)")
        self.environment = environment
        self.executor = AgentExecutor(scheduler: environment.scheduler)
        self.runBDICycleOnStart = runBDICycleOnStart
        self.strategies = strategies
        self.mind = MentalState(beliefs: beliefs, goals: goals)
        self.handlers = handlers
        self.services = services
        for behaviour in behaviours {
            self.behaviours[nextBehaviourID] = (behaviour, nil)
            nextBehaviourID += 1
        }
    }

    /// Creates one of the platform's own agents (`ams`, `df`): active from the start,
    /// outside the white pages, so that nothing needs to start it and no message to
    /// it waits.
    init(platformAgentNamed name: String, environment: Environment, handlers: [MessageHandler]) {
        self.name = name
        self.identifier = AgentIdentifier(name: "\(name)@\(environment.name)")
        self.environment = environment
        self.executor = AgentExecutor(scheduler: environment.scheduler)
        self.runBDICycleOnStart = false
        self.strategies = .default
        self.mind = MentalState(beliefs: BeliefBase(), goals: [])
        self.handlers = handlers
        self.services = []
        self.state = .active
        mailbox.withLock { $0.agentState = .active }
    }

    /// What the agent believes now.
    public var beliefs: BeliefBase { mind.beliefs }

    /// The agent's goals, with their current status and their plans' statuses.
    public var goals: [Goal] { mind.goals }

    /// The goal called `name`, if adopted.
    public func goal(named name: String) -> Goal? {
        mind.goalIndex(named: name).map { mind.goals[$0] }
    }

    /// The platform's logger, with the agent's name as metadata.
    public nonisolated var logger: Logger {
        var logger = environment.logger
        logger[metadataKey: "agent"] = "\(name)"
        return logger
    }

    /// The agent's state as the white pages show it, read without awaiting the agent.
    nonisolated var pagesState: AgentState { mailbox.withLock { $0.agentState } }

    /// Sets the state, tells the white pages and the observers.
    func transition(to newState: AgentState) {
        state = newState
        mailbox.withLock { $0.agentState = newState }
        emit(.stateChanged(newState))
        if newState == .stopped { endConversations() }
    }
}
