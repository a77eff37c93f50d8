import SADEACL

extension Agent {
    /// Runs the FIPA Contract Net protocol (fipa00029) as initiator (manager).
    ///
    /// 1. The `cfp` goes to every participant.
    /// 2. Proposals and refusals are collected until every participant has answered
    ///    or `deadline` passes. A participant the platform cannot reach (a `failure`
    ///    from the AMS) or that answers `not-understood` counts as not answering.
    /// 3. `select` picks the proposals to accept. It is `async` and runs off the
    ///    agent, which keeps handling messages meanwhile.
    /// 4. The chosen get an `accept-proposal`, the others a `reject-proposal`.
    /// 5. The accepted participants' `inform` or `failure` is awaited until
    ///    `resultTimeout` (an accepted participant that cannot be reached fails).
    ///
    /// A proposal that arrives after the deadline while the conversation still runs
    /// is rejected at once, as fipa00029 says; once the call has returned, stray
    /// answers are ordinary messages. Any other unexpected message in the
    /// conversation (a second proposal, an `inform` before any acceptance, a
    /// message from a non-participant) is answered `not-understood` and changes
    /// nothing.
    ///
    /// ```swift
    /// let outcome = try await manager.contractNet(
    ///     ACLMessage(.cfp, content: "(transport :patient 7)"),
    ///     participants: ["Ambulance1", "Ambulance2"], deadline: .seconds(2), resultTimeout: .seconds(30))
    /// // the lowest numeric bid won; outcome.results says how the job went
    /// ```
    ///
    /// - Parameters:
    ///   - cfp: the call for proposals; its receivers are replaced by `participants`.
    ///   - participants: who is called; duplicates are called once.
    ///   - deadline: how long proposals are awaited, on the platform clock.
    ///   - resultTimeout: how long results are awaited after the acceptances.
    ///   - select: the proposals to accept, out of those received in time;
    ///     ``ProposalSelection/lowestNumericContent`` by default.
    /// - Throws: ``InteractionError/agentStopped``, ``InteractionError/agentNotActive(_:)``,
    ///   ``InteractionError/cancelled``, or ``InteractionError/invalidMessage(_:)``
    ///   if `cfp` is not a cfp. Refusals, silences and failures are in the outcome.
    public func contractNet(
        _ cfp: ACLMessage,
        participants: [AgentIdentifier],
        deadline: Duration,
        resultTimeout: Duration,
        select: @escaping @Sendable ([ACLMessage]) async -> [ACLMessage] = ProposalSelection.lowestNumericContent
    ) async throws(InteractionError) -> ContractNetOutcome {
        guard cfp.performative == .cfp else {
            throw .invalidMessage("a contract net starts with a cfp, not a \(cfp.performative)")
        }
        var byName: [String: AgentIdentifier] = [:]  // who is called, by full name; duplicates once
        var called: [AgentIdentifier] = []
        for participant in participants where byName[fullName(of: participant)] == nil {
            byName[fullName(of: participant)] = participant
            called.append(participant)
        }
        var channel = try openChannel(preferredID: cfp.conversationID)
        defer { closeChannel(channel) }
        var outcome = ContractNetOutcome(conversationID: channel.id)
        guard !called.isEmpty else { return outcome }

        var message = cfp
        message.receivers = called
        send(message, in: channel.id, protocol: "fipa-contract-net", replyWithin: deadline)
        channel.startTimer(ContractNetTimer.proposals, after: deadline, clock: environment.clock)
        try await collectProposals(on: &channel, from: byName, into: &outcome)

        let chosen = Set(await select(outcome.proposals).compactMap { $0.sender.flatMap { key(of: $0, in: byName) } })
        guard state == .active else { throw state == .stopped ? .agentStopped : .agentNotActive(state) }
        let awaitingResult = award(chosen, of: byName, in: channel, resultTimeout: resultTimeout, outcome: &outcome)
        guard !awaitingResult.isEmpty else { return outcome }

        channel.startTimer(ContractNetTimer.results, after: resultTimeout, clock: environment.clock)
        try await collectResults(on: &channel, awaiting: awaitingResult, called: called, byName: byName, into: &outcome)
        return outcome
    }

    /// The contract net's two deadlines, as the channel's timer tokens.
    private enum ContractNetTimer {
        /// Proposals are awaited until it fires.
        static let proposals = 0
        /// Results of the accepted proposals are awaited until it fires.
        static let results = 1
    }

    /// Step 2: proposals and refusals until every participant has answered or the
    /// deadline passes; the silent ones are recorded as timed out.
    private func collectProposals(
        on channel: inout InitiatorChannel, from byName: [String: AgentIdentifier], into outcome: inout ContractNetOutcome
    ) async throws(InteractionError) {
        var waiting = byName  // participants that have not answered yet, by full name
        collecting: while !waiting.isEmpty {
            guard let signal = await channel.next() else { throw .cancelled }
            switch signal {
            case .agentStopped: throw .agentStopped
            case .deadline: break collecting
            case .message(let reply):
                if reply.isDeliveryFailure {
                    if let undelivered = undeliveredReceiver(of: reply), let name = key(of: undelivered, in: waiting),
                        let participant = waiting.removeValue(forKey: name) {
                        outcome.unanswered[participant] = .undeliverable(reply)
                    }
                    continue
                }
                guard let sender = reply.sender.flatMap({ key(of: $0, in: waiting) }), let participant = waiting[sender] else {
                    answerNotUnderstood(reply, reason: "no answer from this sender is expected before the deadline")
                    continue
                }
                switch reply.performative {
                case .propose: outcome.proposals.append(reply)
                case .refuse: outcome.refusals.append(reply)
                case .notUnderstood: outcome.unanswered[participant] = .notUnderstood(reply)
                default:
                    answerNotUnderstood(reply, reason: "a cfp is answered with propose or refuse, not \(reply.performative)")
                    continue
                }
                waiting[sender] = nil
            }
        }
        channel.cancelTimers()
        for participant in waiting.values { outcome.unanswered[participant] = .timedOut }
    }

    /// Step 4: `accept-proposal` to the chosen, `reject-proposal` to the others; returns
    /// the accepted participants, whose results are awaited, by full name.
    private func award(
        _ chosen: Set<String>, of byName: [String: AgentIdentifier], in channel: InitiatorChannel, resultTimeout: Duration,
        outcome: inout ContractNetOutcome
    ) -> [String: AgentIdentifier] {
        var awaitingResult: [String: AgentIdentifier] = [:]
        for proposal in outcome.proposals {
            let sender = proposal.sender.flatMap { key(of: $0, in: byName) } ?? ""
            if chosen.contains(sender) {
                outcome.accepted.append(proposal)
                awaitingResult[sender] = byName[sender]
                send(proposal.makeReply(.acceptProposal, content: proposal.content), in: channel.id,
                     protocol: "fipa-contract-net", replyWithin: resultTimeout)
            } else {
                outcome.rejected.append(proposal)
                send(proposal.makeReply(.rejectProposal, content: proposal.content), in: channel.id,
                     protocol: "fipa-contract-net", replyWithin: nil)
            }
        }
        return awaitingResult
    }

    /// Step 5: the accepted participants' `inform` or `failure` until the result
    /// timeout; a late proposal is rejected at once, anything else unexpected is
    /// answered `not-understood`.
    private func collectResults(
        on channel: inout InitiatorChannel, awaiting: [String: AgentIdentifier], called: [AgentIdentifier],
        byName: [String: AgentIdentifier], into outcome: inout ContractNetOutcome
    ) async throws(InteractionError) {
        var awaitingResult = awaiting
        while !awaitingResult.isEmpty {
            guard let signal = await channel.next() else { throw .cancelled }
            switch signal {
            case .agentStopped: throw .agentStopped
            case .deadline(ContractNetTimer.proposals): continue  // it fired as the last answer came
            case .deadline:
                outcome.resultTimeouts = called.filter { awaitingResult[fullName(of: $0)] != nil }
                return
            case .message(let reply):
                if reply.isDeliveryFailure {
                    if let undelivered = undeliveredReceiver(of: reply), let name = key(of: undelivered, in: awaitingResult),
                        let participant = awaitingResult.removeValue(forKey: name) {
                        outcome.results[participant] = .failure(reply)
                    }
                    continue
                }
                let sender = reply.sender.flatMap { key(of: $0, in: byName) } ?? ""
                if let participant = awaitingResult[sender], [.inform, .failure].contains(reply.performative) {
                    outcome.results[participant] = reply.performative == .inform ? .inform(reply) : .failure(reply)
                    awaitingResult[sender] = nil
                } else if reply.performative == .propose, let participant = byName[sender],
                          outcome.unanswered[participant] == .timedOut,
                          !outcome.lateProposals.contains(where: { $0.sender.flatMap { key(of: $0, in: byName) } == sender }) {
                    outcome.lateProposals.append(reply)
                    outcome.rejected.append(reply)
                    send(reply.makeReply(.rejectProposal, content: "(proposal-too-late)"), in: channel.id,
                         protocol: "fipa-contract-net", replyWithin: nil)
                } else if reply.performative == .refuse, let participant = byName[sender],
                          outcome.unanswered[participant] == .timedOut {
                    continue  // a late refusal asks for nothing
                } else {
                    answerNotUnderstood(reply, reason: "a \(reply.performative) is not expected while results are awaited")
                }
            }
        }
    }
}
