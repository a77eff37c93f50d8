import SADEACL

extension Environment {
    /// Creates and starts the platform's own agents, `ams` and `df`. Messages that
    /// reach them before they are started wait in their mailboxes.
    func startPlatformAgents() {
        let ams = Agent(name: "ams", environment: self, handlers: [AgentManagementService.amsHandler])
        let df = Agent(name: "df", environment: self, handlers: [AgentManagementService.dfHandler])
        platformAgents.withLock { $0 = ["ams": ams, "df": df] }
        Task {
            try? await ams.start()
            try? await df.start()
        }
    }

    /// Whether `agent` is the platform's own `ams` or `df`.
    func isPlatformAgent(_ agent: Agent) -> Bool {
        platformAgents.withLock { $0[agent.name] === agent }
    }
}
