import SADEACL

extension Agent {
    /// Publishes this agent's services in the DF `directory`, usually on another
    /// platform (e.g. `AgentIdentifier(name: "df@hub", addresses: ["tcp://hub:7000"])`),
    /// with a FIPA Request in the `fipa-agent-management` ontology. The entry names
    /// this agent with its transport addresses, so that searchers can reach it.
    ///
    /// - Throws: ``InteractionError``; `failed` with `(already-registered)` if the
    ///   agent is already there.
    public func register(_ services: [ServiceDescription], withDirectory directory: AgentIdentifier, timeout: Duration) async throws(InteractionError) {
        try await manageEntry("register", services, directory, timeout)
    }

    /// Replaces this agent's entry in a remote DF; see ``register(_:withDirectory:timeout:)``.
    public func modify(_ services: [ServiceDescription], inDirectory directory: AgentIdentifier, timeout: Duration) async throws(InteractionError) {
        try await manageEntry("modify", services, directory, timeout)
    }

    /// Withdraws this agent's entry from a remote DF.
    public func deregister(fromDirectory directory: AgentIdentifier, timeout: Duration) async throws(InteractionError) {
        try await manageEntry("deregister", [], directory, timeout)
    }

    /// Searches the DF `directory` (on any platform) for services matching `template`.
    ///
    /// - Parameter maxDepth: FIPA's `:max-depth` — 0 asks that DF alone; any other value
    ///   asks it to search the DFs of the platforms it found on the network too, one level
    ///   (on one network every platform finds the same others, so deeper would only ask
    ///   them again), waiting for them at most 2 s or half of what `timeout` leaves.
    /// - Returns: the matching entries, each with its agent's addresses; at most `limit`.
    public func searchDirectory(
        _ directory: AgentIdentifier, for template: ServiceTemplate, limit: Int = 100, maxDepth: Int = 0, timeout: Duration
    ) async throws(InteractionError) -> [DirectoryEntry] {
        let description = ACLExpression.list([
            .word("df-agent-description"), .word(":services"),
            .list([.word("set"), AgentManagementOntology.expression(for: template)]),
        ])
        var constraints = ACLExpression.list([.word("search-constraints"), .word(":max-results"), .number("\(limit)")])
        if maxDepth != 0, case .list(let items) = constraints {
            constraints = .list(items + [.word(":max-depth"), .number("\(maxDepth)")])
        }
        let outcome = try await request(managementRequest(to: directory, "search", [description, constraints]), timeout: timeout)
        guard let content = outcome.content, let result = try? ACLExpression(parsing: content),
            let sequence = result.elements?.first?.elements?.last, sequence.head == "sequence"
        else { throw .invalidMessage("the DF's answer is not a (result …): \(outcome.content ?? "")") }
        var entries: [DirectoryEntry] = []
        for item in sequence.arguments {
            guard let entry = try? AgentManagementOntology.directoryEntry(from: item) else {
                throw .invalidMessage("the DF's answer holds something else than a df-agent-description: \(item)")
            }
            entries.append(entry)
        }
        return entries
    }

    private func manageEntry(_ function: String, _ services: [ServiceDescription], _ directory: AgentIdentifier, _ timeout: Duration) async throws(InteractionError) {
        var me = identifier
        if me.addresses.isEmpty { me.addresses = environment.addresses }
        let entry = AgentManagementOntology.expression(for: DirectoryEntry(agent: me, services: services))
        _ = try await request(managementRequest(to: directory, function, [entry]), timeout: timeout)
    }

    private func managementRequest(to directory: AgentIdentifier, _ function: String, _ arguments: [ACLExpression]) -> ACLMessage {
        var named = directory
        named.addresses = []
        let action = ACLExpression.list([.word("action"), ACLExpression(named), .list([.word(function)] + arguments)])
        return ACLMessage(
            .request, receivers: [directory], content: ACLExpression.list([action]).description,
            language: AgentManagementOntology.language, ontology: AgentManagementOntology.name)
    }
}
