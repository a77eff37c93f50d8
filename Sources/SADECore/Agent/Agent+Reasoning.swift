extension Agent {
    /// Runs one BDI reasoning cycle — the seed's `runBDICycle`:
    /// 1. revise beliefs, 2. generate options, 3. deliberate (filter),
    /// 4. select plans for each chosen goal and start an intention pursuing them.
    ///
    /// The cycle runs when the agent starts (if asked), for every received message,
    /// whenever a belief changes and whenever an intention ends. It never waits for
    /// actions: intentions run in tasks of their own.
    public func runBDICycle(trigger: ReasoningTrigger = .explicit) {
        guard state == .active, !cycleIsIdle else { return }
        reportingChanges {
            mind.trigger = trigger
            mind.now = environment.clock.elapsed
            strategies.beliefRevision.reviseBeliefs(&mind)
            strategies.optionGeneration.generateOptions(&mind)
            let chosen = strategies.deliberation.filter(&mind)
            dropIntentionsOfSettledGoals()
            for goalName in chosen { startIntention(for: goalName) }
            mind.trigger = .explicit
        }
    }

    /// An intention lives only while its goal is `executing`: when the strategies
    /// settled a goal otherwise (an achieve goal reached, say), its task is cancelled.
    private func dropIntentionsOfSettledGoals() {
        for index in mind.goals.indices where mind.goals[index].isIntended && mind.goals[index].status != .executing {
            dropIntention(at: index)
        }
    }

    /// Sets a typed belief; if it changed, the BDI cycle runs.
    ///
    /// - Parameter validity: how long the belief stays valid; the default belief
    ///   revision drops it afterwards.
    public func setBelief<Value>(_ key: BeliefKey<Value>, to value: Value, validFor validity: Duration? = nil) {
        setBelief(key.name, to: value, validFor: validity)
    }

    /// Sets the belief called `name`; if it changed, the BDI cycle runs.
    public func setBelief(_ name: String, to value: any Hashable & Sendable, validFor validity: Duration? = nil) {
        let expiry = validity.map { environment.clock.elapsed + $0 }
        guard mind.beliefs.set(name, to: value, expiresAt: expiry) else { return }
        beliefDidChange(name)
    }

    /// Stops believing `name`; if it was believed, the BDI cycle runs.
    public func removeBelief(_ name: String) {
        guard mind.beliefs.remove(name) else { return }
        beliefDidChange(name)
    }

    private func beliefDidChange(_ name: String) {
        emit(.beliefChanged(name))
        // A message handler's changes are reasoned about in the message's own cycle.
        if !isHandlingMessage { runBDICycle(trigger: .beliefChange) }
    }

    /// Adopts a new goal; option generation takes it up in the cycle this runs.
    ///
    /// - Throws: ``AgentError/duplicateGoal(_:)`` if a goal has the same name.
    public func adopt(_ goal: Goal) throws {
        guard mind.goalIndex(named: goal.name) == nil, !mind.newGoals.contains(where: { $0.name == goal.name }) else {
            throw AgentError.duplicateGoal(goal.name)
        }
        mind.newGoals.append(goal)
        runBDICycle(trigger: .explicit)
    }

    /// Suspends a goal: its intention is cancelled and it is not pursued until
    /// ``resumeGoal(_:)``.
    public func suspendGoal(_ name: String) throws {
        guard let index = mind.goalIndex(named: name) else { throw AgentError.unknownGoal(name) }
        reportingChanges { suspendGoal(at: index) }
    }

    /// Resumes a suspended goal: it is adopted again and the cycle runs.
    public func resumeGoal(_ name: String) throws {
        guard let index = mind.goalIndex(named: name) else { throw AgentError.unknownGoal(name) }
        guard mind.goals[index].status == .suspended else { return }
        reportingChanges { mind.goals[index].readopt() }
        runBDICycle(trigger: .explicit)
    }

    func suspendGoal(at index: Int) {
        dropIntention(at: index)
        mind.goals[index].status = .suspended
    }

    /// Cancels the goal's intention; its interrupted plan goes back to `waiting`.
    private func dropIntention(at index: Int) {
        intentions.removeValue(forKey: mind.goals[index].name)?.cancel()
        mind.goals[index].isIntended = false
        for plan in mind.goals[index].plans.indices where mind.goals[index].plans[plan].status == .executing {
            mind.goals[index].plans[plan].status = .waiting
        }
    }

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

    /// Whether a cycle could change nothing: the default strategies, no goal and no
    /// belief that expires. Then, for every message a purely reactive agent
    /// receives, the cycle is skipped (it would only read the clock and walk empty
    /// lists).
    private var cycleIsIdle: Bool {
        strategies === ReasoningStrategies.default && mind.goals.isEmpty && mind.newGoals.isEmpty
            && mind.beliefs.expiringCount == 0
    }

    /// Tells observers; the event is not even made when nobody observes.
    func emit(_ event: @autoclosure () -> AgentEvent) {
        guard !observers.isEmpty else { return }
        let event = event()
        for continuation in observers.values { continuation.yield(event) }
    }
}
