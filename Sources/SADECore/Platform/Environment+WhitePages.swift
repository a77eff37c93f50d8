import SADEACL

/// An entry of the white pages: an agent and its life-cycle state (fipa00023
/// `ams-agent-description`).
public struct AMSAgentDescription: Hashable, Sendable, Codable {
    /// The agent's identifier.
    public let identifier: AgentIdentifier
    /// The agent's state.
    public let state: AgentState
}

extension Environment {
    /// The started agent called `name` (local name or `name@platform`), if any;
    /// `ams` and `df` are the platform's own agents.
    public func agent(named name: String) -> Agent? {
        guard let local = localName(of: AgentIdentifier(name: name)) else { return nil }
        return registry.withLock { $0[local] } ?? platformAgents.withLock { $0[local] }
    }

    /// The white-pages entry of the agent called `name`, if registered.
    public func description(ofAgentNamed name: String) -> AMSAgentDescription? {
        guard let local = localName(of: AgentIdentifier(name: name)) else { return nil }
        return registry.withLock { $0[local] }.map { AMSAgentDescription(identifier: $0.identifier, state: $0.pagesState) }
    }

    /// Every agent registered by starting it, sorted by name; the platform's own
    /// `ams` and `df` are not listed.
    public var agents: [AMSAgentDescription] {
        registry.withLock { Array($0.values) }
            .map { AMSAgentDescription(identifier: $0.identifier, state: $0.pagesState) }
            .sorted { $0.identifier.name < $1.identifier.name }
    }

    /// The number of registered agents.
    public var agentCount: Int { registry.withLock { $0.count } }

    /// The local name of an identifier that belongs to this platform, else `nil`.
    func localName(of identifier: AgentIdentifier) -> String? {
        if let platform = identifier.platform, platform != name { return nil }
        return String(identifier.localName)
    }

    /// Adds a starting agent to the white pages. One hash of its name: an agent's
    /// life cycle costs as much as a few of them (see BENCHMARKS.md, `spawn`).
    func register(_ agent: Agent) throws {
        let name = agent.name
        guard Self.isValidName(name) else { throw AgentError.invalidName(name) }
        // `ams` and `df` are the platform's own agents.
        guard name != "ams", name != "df" else { throw AgentError.nameTaken(name) }
        try registry.withLock { registry in
            guard let holder = registry.updateValue(agent, forKey: name) else { return }
            registry[name] = holder
            throw AgentError.nameTaken(name)
        }
        metrics.agentsAlive.increment()
    }

    /// Whether `name` can name an agent: not empty, no `@`, no white space. Checked on
    /// every start, so ASCII names (nearly all) are checked byte by byte; only others
    /// pay for the Unicode white-space lookup of `Character`.
    static func isValidName(_ name: String) -> Bool {
        guard !name.isEmpty else { return false }
        let utf8 = name.utf8
        if utf8.allSatisfy({ $0 < 0x80 }) {
            return !utf8.contains { $0 == UInt8(ascii: "@") || $0 == UInt8(ascii: " ") || (0x09...0x0D).contains($0) }
        }
        return !name.contains("@") && !name.contains(where: \.isWhitespace)
    }

    /// Removes a stopping agent from the white pages (not another agent since
    /// registered under its name).
    func deregister(_ agent: Agent) {
        let removed = registry.withLock { registry -> Bool in
            guard let removed = registry.removeValue(forKey: agent.name) else { return false }
            guard removed !== agent else { return true }
            registry[agent.name] = removed
            return false
        }
        if removed { metrics.agentsAlive.decrement() }
    }
}
