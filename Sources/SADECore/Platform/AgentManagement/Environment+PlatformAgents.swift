import SADEACL

extension Environment {
    /// Creates the platform's own agents, `ams` and `df`, active at once.
    func createPlatformAgents() {
        let ams = Agent(platformAgentNamed: "ams", environment: self, handlers: [AgentManagementService.amsHandler])
        let df = Agent(platformAgentNamed: "df", environment: self, handlers: [AgentManagementService.dfHandler])
        platformAgents.withLock { $0 = ["ams": ams, "df": df] }
    }

    /// Stops every agent on the platform, its own `ams` and `df` included. Agents and
    /// platform refer to each other, so a platform lives until it is shut down (or
    /// until the process ends).
    public func shutdown() async {
        for agent in registry.withLock({ Array($0.values) }) { await agent.stop() }
        let own = platformAgents.withLock { agents in
            defer { agents = [:] }
            return Array(agents.values)
        }
        for agent in own { await agent.stop() }
    }
}
