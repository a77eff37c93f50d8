import SADECore
import SADEHealth

/// The care-worker agents of the pipeline, one per worker in the registry.
actor StaffRoster {
    let registry: any ClinicalRegistry
    let environment: Environment
    let book: AlertBook
    private var agents: [StaffID: CareWorkerAgent] = [:]

    init(registry: any ClinicalRegistry, environment: Environment, book: AlertBook) {
        self.registry = registry
        self.environment = environment
        self.book = book
    }

    var staff: [StaffID] { agents.keys.sorted() }

    /// The last refresh asked for: each waits for the one before (they suspend, and two
    /// at once would both start an agent for a new worker).
    private var last: Task<Void, any Error>?

    /// Starts, replaces and stops agents to match the registry, after any refresh
    /// asked for before (this node's, or one another node's change set off).
    func refresh() async throws {
        let previous = last
        let task = Task {
            _ = await previous?.result
            try await self.apply()
        }
        last = task
        try await task.value
    }

    private func apply() async throws {
        let workers = try await registry.workers(in: nil)
        let current = Set(workers.map(\.id))
        for (id, agent) in agents where !current.contains(id) {
            await agent.agent.stop()
            agents[id] = nil
        }
        for worker in workers where agents[worker.id]?.worker != worker {
            if let old = agents.removeValue(forKey: worker.id) { await old.agent.stop() }
            let agent = CareWorkerAgent(worker: worker, environment: environment, book: book)
            try await agent.agent.start()
            agents[worker.id] = agent
        }
    }

    func stopAll() async {
        for agent in agents.values { await agent.agent.stop() }
        agents = [:]
    }
}
