extension Agent {
    /// Starts a task pursuing the goal with the plans chosen by plan selection.
    /// Step 4 of the cycle, means–end reasoning: the plans the plan-selection strategy
    /// offers for a chosen goal not yet intended, in the order to try them; none fails
    /// the goal. `nil` when there is nothing to do for it.
    func selectPlans(for goalName: String) -> [Plan]? {
        guard let index = mind.goalIndex(named: goalName), !mind.goals[index].isIntended else { return nil }
        let plans = strategies.planSelection.selectPlans(for: mind.goals[index], in: mind)
        guard !plans.isEmpty else {
            mind.goals[index].status = .failed
            return nil
        }
        return plans
    }

    /// Commits to `plans` for the goal: an intention, a task that tries them in turn.
    func startIntention(for goalName: String, with plans: [Plan]) {
        guard let index = mind.goalIndex(named: goalName), !mind.goals[index].isIntended else { return }
        mind.goals[index].isIntended = true
        // The task prefers the agents' threads: the plan's actions (nonisolated code)
        // and its returns to the agent then hop within the scheduler, not between it
        // and Swift's global executor (a thread wake-up each way).
        intentions[goalName] = Task(executorPreference: executor.scheduler) { await self.pursue(goalName, plans: plans) }
    }

    /// Tries the plans one by one until one achieves the goal. A plan whose context
    /// does not hold is skipped; a throwing action fails its plan and the next plan
    /// is tried. Cancellation (suspend, stop) leaves the statuses to whoever cancelled.
    private func pursue(_ goalName: String, plans: [Plan]) async {
        for plan in plans {
            guard !Task.isCancelled else { return }
            guard let goal = goal(named: goalName) else { break }
            guard plan.isApplicable(for: mind.beliefs) else { continue }
            setStatus(.executing, ofPlan: plan.name, inGoal: goalName)
            do {
                for action in plan.actions {
                    try Task.checkCancellation()  // a cancelled intention starts no further action
                    try await perform(action, goal: goalName, plan: plan.name)
                }
                guard !Task.isCancelled else { return }
                setStatus(.achieved, ofPlan: plan.name, inGoal: goalName)
                if case .achieve(let condition) = goal.kind, !condition.holds(for: mind.beliefs) { continue }
                break
            } catch {
                guard !Task.isCancelled else { return }
                logger.error(
                    "plan failed", metadata: ["goal": "\(goalName)", "plan": "\(plan.name)", "error": "\(error)"])
                emit(.failed(activity: "plan \(plan.name) of goal \(goalName)", reason: "\(error)"))
                setStatus(.failed, ofPlan: plan.name, inGoal: goalName)
            }
        }
        guard !Task.isCancelled else { return }
        intentions[goalName] = nil
        guard let index = mind.goalIndex(named: goalName) else { return }
        mind.goals[index].isIntended = false
        runBDICycle(trigger: .intentionFinished(goal: goalName))
    }

    /// Runs an action once or, for a cyclic one, every interval until it stops,
    /// checking its pre- and post-conditions.
    private func perform(_ action: any Action, goal: String, plan: String) async throws {
        let context = ActionContext(agent: self, goal: goal, plan: plan)
        // A cancelled intention unwinding late must not clear what its successor runs.
        nextActionRun += 1
        let run = nextActionRun
        runningActions[goal] = (run, action.name)
        defer { if runningActions[goal]?.run == run { runningActions[goal] = nil } }
        switch action.schedule {
        case .once:
            try check(action, precondition: true)
            try await action.runAction(context)
            try check(action, precondition: false)
        case .every(let interval):
            try await context.repeatEvery(interval) { context, _ in
                try await self.runTick(of: action, context: context)
            }
        }
    }

    /// One run of a cyclic action: skipped while the precondition does not hold.
    private func runTick(of action: any Action, context: ActionContext) async throws {
        if let precondition = action.precondition, !precondition.holds(for: mind.beliefs) { return }
        try await action.runAction(context)
        try Task.checkCancellation()
        try check(action, precondition: false)
    }

    private func check(_ action: any Action, precondition: Bool) throws {
        if precondition, let condition = action.precondition, !condition.holds(for: mind.beliefs) {
            throw ActionError.preconditionFailed(action: action.name, condition: condition.description)
        }
        if !precondition, let condition = action.postcondition, !condition.holds(for: mind.beliefs) {
            throw ActionError.postconditionFailed(action: action.name, condition: condition.description)
        }
    }

    private func setStatus(_ status: PlanStatus, ofPlan planName: String, inGoal goalName: String) {
        guard let goal = mind.goalIndex(named: goalName),
            let plan = mind.goals[goal].plans.firstIndex(where: { $0.name == planName })
        else { return }
        mind.goals[goal].plans[plan].status = status
        emit(.planStatusChanged(goal: goalName, plan: planName, status: status))
    }
}
