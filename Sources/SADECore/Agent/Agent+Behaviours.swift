extension Agent {
    /// Adds a behaviour; it starts at once if the agent is active, otherwise when
    /// the agent starts or resumes. A finished behaviour is removed.
    public func addBehaviour(_ behaviour: any Behaviour) {
        let id = nextBehaviourID
        nextBehaviourID += 1
        behaviours[id] = (behaviour, nil)
        if state == .active { launchBehaviour(id) }
    }

    /// The number of behaviours added and not finished.
    public var behaviourCount: Int { behaviours.count }

    func startBehaviours() {
        for id in behaviours.keys.sorted() where behaviours[id]?.task == nil { launchBehaviour(id) }
    }

    /// Cancels running behaviours; they stay added and restart from the beginning
    /// when the agent resumes.
    func cancelBehaviours() {
        for id in behaviours.keys {
            behaviours[id]?.task?.cancel()
            behaviours[id]?.task = nil
        }
    }

    private func launchBehaviour(_ id: Int) {
        guard let behaviour = behaviours[id]?.behaviour else { return }
        // On the agents' threads, like intentions (see `startIntention(for:with:)`).
        behaviours[id]?.task = Task(executorPreference: executor.scheduler) { await self.run(behaviour, id: id) }
    }

    private func run(_ behaviour: any Behaviour, id: Int) async {
        do {
            try await behaviour.action(ActionContext(agent: self))
        } catch {
            guard !Task.isCancelled else { return }
            logger.error("behaviour failed", metadata: ["behaviour": "\(behaviour.name)", "error": "\(error)"])
            emit(.failed(activity: "behaviour \(behaviour.name)", reason: "\(error)"))
        }
        guard !Task.isCancelled else { return }
        behaviours[id] = nil
        emit(.behaviourFinished(behaviour.name))
    }
}
