extension Agent {
    /// Starts the agent: registers it in the white pages (and its services in the
    /// yellow pages), starts its behaviours, and runs the BDI cycle if
    /// ``runBDICycleOnStart`` is set.
    ///
    /// - Throws: ``AgentError/nameTaken(_:)`` if the name is in use on the platform,
    ///   ``AgentError/duplicateGoal(_:)`` if two goals share a name,
    ///   ``DirectoryFacilitator/DirectoryError/alreadyRegistered(_:)`` if its services
    ///   are already in the yellow pages (the agent then stays unregistered),
    ///   ``AgentError/invalidTransition(operation:state:)`` if already started.
    public func start() throws {
        guard state == .initiated else { throw AgentError.invalidTransition(operation: "start", state: state) }
        var seen = Set<String>()
        for goal in mind.goals where !seen.insert(goal.name).inserted {
            throw AgentError.duplicateGoal(goal.name)
        }
        try environment.register(self)
        if !services.isEmpty {
            do {
                try environment.directory.register(DirectoryEntry(agent: identifier, services: services))
            } catch {
                environment.deregister(self)
                for message in mailbox.withLock({ $0.reset() }) {
                    environment.returnToSender(message, failure: .unknownAgent(identifier))
                }
                throw error
            }
        }
        transition(to: .active)
        startBehaviours()
        if runBDICycleOnStart { runBDICycle(trigger: .start) }
        scheduleMailboxDrain()
    }

    /// Suspends the agent: running intentions and behaviours are cancelled (their
    /// goals become `suspended`), and received messages wait in the mailbox.
    public func suspend() throws {
        guard state == .active else { throw AgentError.invalidTransition(operation: "suspend", state: state) }
        reportingChanges {
            for index in mind.goals.indices where mind.goals[index].status == .executing {
                suspendGoal(at: index)
                goalsSuspendedWithAgent.insert(mind.goals[index].name)
            }
        }
        cancelBehaviours()
        transition(to: .suspended)
    }

    /// Resumes a suspended agent: goals suspended with it are adopted again, its
    /// behaviours restart, the BDI cycle runs and waiting messages are handled.
    public func resume() throws {
        guard state == .suspended else { throw AgentError.invalidTransition(operation: "resume", state: state) }
        transition(to: .active)
        reportingChanges {
            for index in mind.goals.indices where goalsSuspendedWithAgent.contains(mind.goals[index].name) {
                mind.goals[index].readopt()
            }
        }
        goalsSuspendedWithAgent.removeAll()
        startBehaviours()
        runBDICycle(trigger: .start)
        scheduleMailboxDrain()
    }

    /// Stops the agent for good: cancels everything it runs, removes it from the
    /// white and yellow pages, and returns every message still in its mailbox to its
    /// sender as a `failure`. Stopping a stopped agent does nothing.
    public func stop() {
        guard state != .stopped else { return }
        for task in intentions.values { task.cancel() }
        intentions.removeAll()
        cancelBehaviours()
        behaviours.removeAll()
        let wasRegistered = state != .initiated
        transition(to: .stopped)
        if wasRegistered {
            environment.deregister(self)
            environment.directory.removeEntry(of: identifier)
        }
        let undelivered = mailbox.withLock { $0.close() }
        for message in undelivered {
            environment.returnToSender(message, failure: .agentStopped(identifier))
        }
        for observer in observers.values { observer.finish() }
        observers.removeAll()
    }
}
