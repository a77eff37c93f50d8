import SADEACL
import SADECore
import SADETestTiming
import Testing

@Suite("FIPA Contract Net", .timeLimit(.minutes(3)), .timed)
struct ContractNetTests {
    /// A contractor that bids `price` (or refuses when `nil`), records rejections and
    /// reports `(done <name>)` once accepted.
    static func contractor(
        _ name: String, on platform: Environment, price: Int?, rejections: Recorder<String>? = nil, gate: Gate? = nil
    ) async throws -> Agent {
        try await startedAgent(name, on: platform) {
            ContractNetResponder { _, _ in
                price.map { .propose("\($0)") } ?? .refuse("(busy)")
            } perform: { agent, _ in
                await gate?.wait()
                return "(done \(agent.name))"
            } rejected: { agent, _ in
                rejections?.append(agent.name)
            }
        }
    }

    @Test("1 initiator and 11 contractors: the lowest bid wins, the others are rejected, the refusal is recorded")
    func elevenParticipants() async throws {
        let platform = Environment(name: "test", clock: ManualClock())
        let rejections = Recorder<String>()
        let prices = [40, 25, 33, 71, 12, 58, 19, 90, 27, 64]
        var participants: [AgentIdentifier] = []
        for (index, price) in prices.enumerated() {
            _ = try await Self.contractor("C\(index)", on: platform, price: price, rejections: rejections)
            participants.append(AgentIdentifier(name: "C\(index)"))
        }
        _ = try await Self.contractor("Lazy", on: platform, price: nil)
        participants.append("Lazy")
        let manager = try await startedAgent("Manager", on: platform)

        let outcome = try await manager.contractNet(
            ACLMessage(.cfp, content: "(transport)"), participants: participants,
            deadline: .seconds(10), resultTimeout: .seconds(10))

        #expect(outcome.proposals.count == 10)
        #expect(outcome.refusals.map { $0.sender?.localName } == ["Lazy"])
        #expect(outcome.unanswered.isEmpty)
        #expect(outcome.accepted.map { $0.sender?.localName } == ["C4"])
        #expect(outcome.accepted.first?.content == "12")
        #expect(Set(outcome.rejected.compactMap { $0.sender?.localName }) == Set((0..<10).filter { $0 != 4 }.map { "C\($0)" }))
        #expect(outcome.results == ["C4": .inform(try #require(outcome.informs.first))])
        #expect(outcome.informs.first?.content == "(done C4)")
        #expect(outcome.resultTimeouts.isEmpty)
        // Rejections are told to the contractors; the winner is not among them.
        while rejections.count < 9 { await Task.yield() }
        #expect(!rejections.all.contains("C4"))
    }

    @Test("an unknown participant counts as not answering, without waiting for the deadline")
    func unknownParticipantIsUnanswered() async throws {
        let platform = Environment(name: "test", clock: ManualClock())
        _ = try await Self.contractor("Real", on: platform, price: 5)
        let manager = try await startedAgent("Manager", on: platform)

        // The manual clock never moves: waiting for the deadline would hang the test.
        let outcome = try await manager.contractNet(
            ACLMessage(.cfp, content: "(job)"), participants: ["Real", "Ghost"], deadline: .seconds(5), resultTimeout: .seconds(5))

        guard case .undeliverable(let failure) = outcome.unanswered["Ghost"] else {
            Issue.record("Ghost should be undeliverable, is \(String(describing: outcome.unanswered["Ghost"]))")
            return
        }
        #expect(failure.userDefined["X-failure-reason"] == "unknown-agent")
        #expect(outcome.accepted.map { $0.sender?.localName } == ["Real"])
        #expect(outcome.informs.map(\.content) == ["(done Real)"])
    }

    @Test("a participant silent past the deadline is unanswered; its late proposal is rejected")
    func deadlineAndLateProposal() async throws {
        let clock = ManualClock()
        let platform = Environment(name: "test", clock: clock)
        let gate = Gate()
        let winner = try await Self.contractor("Fast", on: platform, price: 10, gate: gate)
        var winnerProbe = await EventProbe(winner)
        let slow = try await startedAgent("Slow", on: platform)
        var slowProbe = await EventProbe(slow)
        let manager = try await startedAgent("Manager", on: platform)
        var managerProbe = await EventProbe(manager)

        let run = Task {
            try await manager.contractNet(
                ACLMessage(.cfp, content: "(job)"), participants: ["Fast", "Slow"],
                deadline: .seconds(3), resultTimeout: .seconds(30))
        }
        let cfp = try #require(await slowProbe.nextMessage { $0.performative == .cfp })
        // Fast's proposal is in before the deadline passes (it answers on its own time): the
        // manager has received it and, once its turn is over, handed it to the conversation,
        // ahead of the deadline's signal.
        #expect(await managerProbe.nextMessage { $0.performative == .propose && $0.sender?.localName == "Fast" } != nil)
        _ = await manager.state
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(3))
        _ = await winnerProbe.nextMessage { $0.performative == .acceptProposal }

        slow.send(cfp.makeReply(.propose, content: "1"))
        let rejection = try #require(await slowProbe.nextMessage { $0.performative == .rejectProposal })
        #expect(rejection.content == "(proposal-too-late)")
        gate.open()

        let outcome = try await run.value
        #expect(outcome.unanswered == ["Slow": .timedOut])
        #expect(outcome.lateProposals.map { $0.content } == ["1"])
        #expect(outcome.accepted.map { $0.sender?.localName } == ["Fast"])
        #expect(outcome.informs.count == 1)
    }

    @Test("an accepted participant that sends no result within the result timeout is listed as timed out")
    func resultTimeout() async throws {
        let clock = ManualClock()
        let platform = Environment(name: "test", clock: clock)
        let winner = try await Self.contractor("Stuck", on: platform, price: 1, gate: Gate())
        var probe = await EventProbe(winner)
        let manager = try await startedAgent("Manager", on: platform)
        let run = Task {
            try await manager.contractNet(
                ACLMessage(.cfp, content: "(job)"), participants: ["Stuck"], deadline: .seconds(3), resultTimeout: .seconds(20))
        }
        _ = await probe.nextMessage { $0.performative == .acceptProposal }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(19))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(1))
        let outcome = try await run.value
        #expect(outcome.resultTimeouts == ["Stuck"])
        #expect(outcome.results.isEmpty)
    }

    @Test("a winner that dies during the async selection ends with the platform's failure as its result")
    func winnerDiesDuringSelection() async throws {
        let platform = Environment(name: "test", clock: ManualClock())
        let doomed = try await Self.contractor("Doomed", on: platform, price: 1)
        _ = try await Self.contractor("Other", on: platform, price: 2)
        let manager = try await startedAgent("Manager", on: platform)

        let outcome = try await manager.contractNet(
            ACLMessage(.cfp, content: "(job)"), participants: ["Doomed", "Other"], deadline: .seconds(5),
            resultTimeout: .seconds(5)
        ) { proposals in
            await doomed.stop()
            return await ProposalSelection.lowestNumericContent(proposals)
        }
        guard case .failure(let failure) = outcome.results["Doomed"] else {
            Issue.record("expected a delivery failure, got \(String(describing: outcome.results["Doomed"]))")
            return
        }
        #expect(failure.sender?.localName == "ams")
        #expect(outcome.rejected.map { $0.sender?.localName } == ["Other"])
    }

    @Test("146 concurrent contract nets each end with their own winner and result")
    func manyConcurrentContractNets() async throws {
        let platform = Environment(name: "test")
        let bidders = 5
        for index in 0..<bidders {
            _ = try await startedAgent("B\(index)", on: platform) {
                ContractNetResponder { _, cfp in
                    .propose("\(Self.price(bidder: index, task: Int(cfp.content ?? "") ?? 0))")
                } perform: { agent, accepted in
                    "(\(agent.name) \(accepted.conversationID ?? ""))"
                }
            }
        }
        let manager = try await startedAgent("Manager", on: platform)
        let outcomes = try await withThrowingTaskGroup(of: (Int, ContractNetOutcome).self) { group in
            for task in 0..<146 {
                group.addTask {
                    let outcome = try await manager.contractNet(
                        ACLMessage(.cfp, content: "\(task)"), participants: (0..<bidders).map { AgentIdentifier(name: "B\($0)") },
                        deadline: .seconds(30), resultTimeout: .seconds(30))
                    return (task, outcome)
                }
            }
            return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        #expect(outcomes.count == 146)
        #expect(Set(outcomes.values.map { $0.conversationID }).count == 146)
        for (task, outcome) in outcomes {
            let expected = (0..<bidders).min { Self.price(bidder: $0, task: task) < Self.price(bidder: $1, task: task) }!
            #expect(outcome.proposals.count == bidders)
            #expect(outcome.accepted.map { $0.sender?.localName } == ["B\(expected)"])
            #expect(outcome.informs.map { $0.content } == ["(B\(expected) \(outcome.conversationID))"])
        }
        #expect(await manager.state == .active)
    }

    /// Distinct bids per task, so each task has one clear winner.
    static func price(bidder: Int, task: Int) -> Int { ((bidder + task) % 5) * 10 + bidder }

    @Test("messages out of place in a contract net get not-understood and change nothing")
    func unexpectedMessages() async throws {
        let platform = Environment(name: "test", clock: ManualClock())
        let gate = Gate()
        let winner = try await Self.contractor("Winner", on: platform, price: 3, gate: gate)
        var winnerProbe = await EventProbe(winner)
        let twice = try await startedAgent("Twice", on: platform)
        var twiceProbe = await EventProbe(twice)
        let outsider = try await startedAgent("Outsider", on: platform)
        var outsiderProbe = await EventProbe(outsider)
        let manager = try await startedAgent("Manager", on: platform)
        let run = Task {
            try await manager.contractNet(
                ACLMessage(.cfp, content: "(job)"), participants: ["Winner", "Twice"], deadline: .seconds(5),
                resultTimeout: .seconds(5))
        }
        let cfp = try #require(await twiceProbe.nextMessage { $0.performative == .cfp })
        // An inform from a non-participant before the deadline.
        outsider.send(ACLMessage(.inform, receivers: [manager.identifier], content: "(x)", conversationID: cfp.conversationID))
        #expect(await outsiderProbe.nextMessage()?.performative == .notUnderstood)
        // An inform instead of a proposal.
        twice.send(cfp.makeReply(.inform, content: "(x)"))
        #expect(await twiceProbe.nextMessage()?.performative == .notUnderstood)
        twice.send(cfp.makeReply(.propose, content: "7"))
        twice.send(cfp.makeReply(.propose, content: "1"))  // a second proposal
        _ = await winnerProbe.nextMessage { $0.performative == .acceptProposal }
        // The second proposal is not-understood, whether it came before or after the selection.
        let answers = [await twiceProbe.nextMessage(), await twiceProbe.nextMessage()].compactMap { $0?.performative }
        #expect(Set(answers) == [.rejectProposal, .notUnderstood])
        gate.open()

        let outcome = try await run.value
        #expect(Set(outcome.proposals.compactMap { $0.content }) == ["3", "7"])
        #expect(outcome.accepted.map { $0.sender?.localName } == ["Winner"])
        #expect(outcome.rejected.map { $0.sender?.localName } == ["Twice"])
    }

    @Test("a contractor answers an acceptance of a proposal it never made with not-understood")
    func contractorRejectsUnknownAcceptance() async throws {
        let platform = Environment(name: "test")
        _ = try await Self.contractor("Contractor", on: platform, price: 1)
        let stranger = try await startedAgent("Stranger", on: platform)
        var probe = await EventProbe(stranger)
        stranger.send(ACLMessage(.acceptProposal, receivers: ["Contractor"], content: "1", conversationID: "nope"))
        let answer = try #require(await probe.nextMessage())
        #expect(answer.performative == .notUnderstood)
        #expect(answer.conversationID == "nope")
    }

    @Test("stopping the manager while it waits for proposals ends the contract net with agentStopped")
    func stoppedManager() async throws {
        let platform = Environment(name: "test", clock: ManualClock())
        let silent = try await startedAgent("Silent", on: platform)
        var probe = await EventProbe(silent)
        let manager = try await startedAgent("Manager", on: platform)
        let run = Task {
            await interactionError {
                try await manager.contractNet(
                    ACLMessage(.cfp, content: "(job)"), participants: ["Silent"], deadline: .seconds(5), resultTimeout: .seconds(5))
            }
        }
        _ = await probe.nextMessage { $0.performative == .cfp }
        await manager.stop()
        #expect(await run.value == .agentStopped)
    }

    @Test("the default selection takes the lowest number in the content and ignores proposals without one")
    func lowestNumericSelection() async {
        let proposals = [
            ACLMessage(.propose, sender: "A", content: "(price 12.5)"), ACLMessage(.propose, sender: "B", content: "cheap"),
            ACLMessage(.propose, sender: "C", content: "7"), ACLMessage(.propose, sender: "D", content: "7"),
        ]
        #expect(await ProposalSelection.lowestNumericContent(proposals).map(\.sender) == ["C"])
        #expect(await ProposalSelection.lowestNumericContent([proposals[1]]).isEmpty)
    }
}
