/// What observers of an agent hear (``Agent/events()``): its state, belief, goal and
/// plan changes, messages and failures — the plumbing that tells them, apart from the
/// reasoning cycle that causes the changes.
extension Agent {
    /// Runs `change` and tells observers which goals, plans and beliefs it changed.
    func reportingChanges(_ change: () -> Void) {
        let before = observers.isEmpty ? nil : ObservedMind(mind)
        change()
        if let before { emitChanges(from: before) }
    }
}

/// The statuses and beliefs before a change, to tell observers what changed.
struct ObservedMind {
    let goals: [String: (status: GoalStatus, plans: [PlanStatus])]
    let beliefs: BeliefBase

    init(_ mind: MentalState) {
        var goals: [String: (GoalStatus, [PlanStatus])] = [:]
        for goal in mind.goals { goals[goal.name] = (goal.status, goal.plans.map(\.status)) }
        self.goals = goals
        self.beliefs = mind.beliefs
    }
}

extension Agent {
    func emitChanges(from before: ObservedMind) {
        for goal in mind.goals {
            let old = before.goals[goal.name]
            for (index, plan) in goal.plans.enumerated() {
                // A custom strategy may have added plans: those count as changed.
                let oldStatus = old.flatMap { index < $0.plans.count ? $0.plans[index] : nil }
                if oldStatus != plan.status {
                    emit(.planStatusChanged(goal: goal.name, plan: plan.name, status: plan.status))
                }
            }
            if old?.status != goal.status { emit(.goalStatusChanged(goal: goal.name, status: goal.status)) }
        }
        if before.beliefs != mind.beliefs {
            let names = Set(before.beliefs.names).union(mind.beliefs.names)
            for name in names.sorted() where before.beliefs.belief(named: name) != mind.beliefs.belief(named: name) {
                emit(.beliefChanged(name))
            }
        }
    }

    /// A stream of everything observable that happens in the agent from now on:
    /// state, belief, goal and plan changes, messages and failures. It ends when the
    /// agent stops. Consume it, or drop it: events are buffered until read.
    public func events() -> AsyncStream<AgentEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: AgentEvent.self)
        let id = nextObserverID
        nextObserverID += 1
        if state == .stopped {
            continuation.finish()
            return stream
        }
        observers[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeObserver(id) }
        }
        return stream
    }

    func removeObserver(_ id: Int) { observers[id] = nil }

    /// Tells observers; the event is not even made when nobody observes.
    func emit(_ event: @autoclosure () -> AgentEvent) {
        guard !observers.isEmpty else { return }
        let event = event()
        for continuation in observers.values { continuation.yield(event) }
    }
}
