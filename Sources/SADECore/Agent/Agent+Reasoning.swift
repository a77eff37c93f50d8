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
        var record: ReasoningRecord?
        let observed = !observers.isEmpty  // the record is made only for observers
        reportingChanges {
            mind.trigger = trigger
            mind.now = environment.clock.elapsed
            // 1. Belief revision: what is no longer true goes (by default, expired beliefs).
            strategies.beliefRevision.reviseBeliefs(&mind)
            // 2. Option generation: new goals adopted, every goal's status reviewed.
            strategies.optionGeneration.generateOptions(&mind)
            // 3. Deliberation (the filter): the goals to pursue now; goals settled meanwhile lose their intentions.
            let options = !observed ? [] : mind.goals.map { ReasoningRecord.Option(goal: $0.name, status: $0.status) }
            let chosen = strategies.deliberation.filter(&mind)
            let notChosen = !observed ? [] : mind.goals.filter { $0.status == .waiting && !chosen.contains($0.name) }.map(\.name)
            dropIntentionsOfSettledGoals()
            // 4. Plan selection: plans for each chosen goal, pursued by an intention.
            var selected: [String: [String]] = [:]
            var withoutPlan: [String] = []
            for goalName in chosen {
                if let plans = selectPlans(for: goalName) {
                    startIntention(for: goalName, with: plans)
                    if observed { selected[goalName] = plans.map(\.name) }
                } else if observed, mind.goalIndex(named: goalName).map({ mind.goals[$0].status == .failed }) == true {
                    withoutPlan.append(goalName)
                }
            }
            if observed {
                record = ReasoningRecord(
                    trigger: mind.trigger.label, options: options, chosen: chosen, notChosen: notChosen, selected: selected,
                    withoutPlan: withoutPlan, strategies: strategies.names)
            }
            mind.trigger = .explicit
        }
        // After the goal and plan changes it caused, which observers hear first.
        if let record { emit(.reasoned(record)) }
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

    /// Whether a cycle could change nothing: the default strategies, no goal and no
    /// belief that expires. Then, for every message a purely reactive agent
    /// receives, the cycle is skipped (it would only read the clock and walk empty
    /// lists).
    private var cycleIsIdle: Bool {
        strategies === ReasoningStrategies.default && mind.goals.isEmpty && mind.newGoals.isEmpty
            && mind.beliefs.expiringCount == 0
    }
}
