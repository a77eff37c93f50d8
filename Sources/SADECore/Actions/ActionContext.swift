import Logging
import SADEACL
import Synchronization

/// What an action or behaviour can use while it runs: its agent's beliefs,
/// messaging, the platform clock and logger.
public struct ActionContext: Sendable {
    /// The agent the action runs for.
    public let agent: Agent
    /// The goal being pursued, when run as part of a plan.
    public let goal: String?
    /// The plan being executed, when run as part of a plan.
    public let plan: String?
    private let repetition = RepetitionControl()

    init(agent: Agent, goal: String? = nil, plan: String? = nil) {
        self.agent = agent
        self.goal = goal
        self.plan = plan
    }

    /// A context for a child of a composite behaviour: same agent, goal and plan,
    /// its own ``stopRepeating()`` flag.
    func child() -> ActionContext {
        ActionContext(agent: agent, goal: goal, plan: plan)
    }

    /// Ends a cyclic action or behaviour after the current run.
    public func stopRepeating() { repetition.stopped.store(true, ordering: .relaxed) }

    /// Whether ``stopRepeating()`` was called.
    public var isRepeatingStopped: Bool { repetition.stopped.load(ordering: .relaxed) }

    /// Sends a message from the agent; see ``Agent/send(_:)``.
    public func send(_ message: ACLMessage) { agent.send(message) }

    /// The current value of a typed belief of the agent.
    public func belief<Value>(_ key: BeliefKey<Value>) async -> Value? {
        await agent.beliefs[key]
    }

    /// Sets a belief of the agent; a change triggers a reasoning cycle.
    public func setBelief<Value>(_ key: BeliefKey<Value>, to value: Value, validFor validity: Duration? = nil) async {
        await agent.setBelief(key, to: value, validFor: validity)
    }

    /// Sleeps on the platform clock.
    public func sleep(for duration: Duration) async throws {
        try await agent.environment.clock.sleep(for: duration)
    }

    /// The platform's logger, labelled with the agent's name.
    public var logger: Logger { agent.logger }

    /// Runs `body` every `interval` (first after one interval) with the run's number,
    /// from 1, until ``stopRepeating()`` is called or the task is cancelled.
    func repeatEvery(_ interval: Duration, _ body: @Sendable (ActionContext, Int) async throws -> Void) async throws {
        var run = 0
        while !isRepeatingStopped {
            try await sleep(for: interval)
            try Task.checkCancellation()
            run += 1
            try await body(self, run)
        }
    }
}

/// The stop flag shared by the copies of one ``ActionContext``.
private final class RepetitionControl: Sendable {
    let stopped = Atomic<Bool>(false)
}
