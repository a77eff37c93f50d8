import Foundation
import Logging
import SADEACL
import SADECore
import Synchronization

/// iMobile's `InformIssueToSolveBehavior`: the reporter's agent hands on an issue.
///
/// 1. An issue that is not urgent by the ``IssueTrackRules`` (medium, low, or high
///    with a far deadline) is not offered.
/// 2. The company's directory is searched for agents offering the issue's service (and
///    those of the phones found on the network, with ``IssueAgent/searchDepth`` 1).
/// 3. They are offered the issue in a FIPA Contract Net; their proposals and refusals
///    carry their reasons. One proposal is accepted (``IssueTracker/choose``) and its
///    employee confirms that they took the issue; the store records the assignment. If
///    the chosen one declines (their employee said *Can't* or did not answer: see
///    ``NotifyIssueWasTaken``) or is gone before confirming, the others who proposed
///    are asked again.
/// 4. When nobody is found (or the directory cannot be reached), nobody proposes, or
///    nobody chosen confirms, everyone offering the service is e-mailed.
///
/// Agents that cannot be reached or do not answer before the deadline count as not
/// connected; the round goes on with the others.
public struct InformIssueToSolve: Behaviour {
    /// The behaviour's name.
    public let name = "InformIssueToSolve"
    /// The issue, as stored.
    public let issue: Issue
    let issueAgent: IssueAgent
    let report: ReportOnce

    /// Creates the behaviour for `issue`, registered by `agent`'s employee; `done` is
    /// called once with the round (`interrupted` if the agent stops first).
    init(issue: Issue, by agent: IssueAgent, done: @escaping @Sendable (IssueRound) -> Void) {
        self.issue = issue
        self.issueAgent = agent
        self.report = ReportOnce(done)
    }

    /// Runs the round and reports it.
    public func action(_ context: ActionContext) async throws {
        var round = IssueRound(issue: issue)
        do {
            round = try await run(round)
        } catch is CancellationError {
            round.result = .interrupted
        } catch InteractionError.agentStopped, InteractionError.cancelled, InteractionError.agentNotActive {
            round.result = .interrupted
        } catch {
            context.logger.error("issue round failed", metadata: ["issue": "\(issue.label)", "error": "\(error)"])
            round.result = .failed(reason: "\(error)")
        }
        issueAgent.observe(.finished(round))
        report.callAsFunction(round)
    }

    private func run(_ start: IssueRound) async throws -> IssueRound {
        var round = start
        guard let tracker = issueAgent.tracker, let id = issue.id else { return round }
        let agent = issueAgent.agent
        if let reason = tracker.rules.reasonNotOffered(issue, at: tracker.now) {
            round.result = .notOffered(reason: reason)
            return round
        }
        let template = ServiceTemplate(type: issue.service, ontology: IssueMessages.ontology)
        var found: [AgentIdentifier] = []
        do {
            found = try await agent.searchDirectory(
                issueAgent.directory, for: template, maxDepth: issueAgent.searchDepth, timeout: IssueAgent.directoryTimeout)
                .map(\.agent).filter { $0.localName != agent.identifier.localName }
        } catch .agentStopped {
            throw InteractionError.agentStopped
        } catch .cancelled {
            throw InteractionError.cancelled
        } catch {  // the company's directory cannot be reached: nobody can be, as far as we know
            agent.logger.warning("directory not reachable; e-mailing instead", metadata: ["issue": "\(issue.label)", "error": "\(error)"])
        }
        issueAgent.observe(.discovered(issue, colleagues: found.map { String($0.localName) }))
        guard !found.isEmpty else { return try await emailEveryone(round, tracker: tracker) }

        round.asked = found.map { String($0.localName) }
        issueAgent.observe(.offered(issue, to: round.asked))
        var candidates = found
        for attempt in 1...found.count {
            var cfp = IssueMessages.offer(issue)
            cfp.conversationID = "issue-\(id)-offer-\(attempt)"
            let outcome = try await agent.contractNet(
                cfp, participants: candidates, deadline: tracker.proposalDeadline, resultTimeout: tracker.confirmationTimeout,
                select: tracker.choose)
            record(outcome, in: &round)
            let confirmed = outcome.informs.first { IssueMessages.confirmsTaken($0.content, issue: id) }
            if let employee = confirmed?.sender.map({ String($0.localName) }) {
                try await tracker.store.assign(id, to: employee)
                round.result = .taken(by: employee)
                issueAgent.observe(.taken(issue, by: employee))
                return round
            }
            // The chosen colleague declined, or is gone before confirming: offer it again to the others who proposed.
            let gone = Set(outcome.accepted.compactMap { $0.sender.map { String($0.localName) } })
            for employee in gone.sorted() where round.declined[employee] == nil && !round.unreachable.contains(employee) {
                round.unreachable.append(employee)
                issueAgent.observe(.unreachable(issue, employee: employee))
            }
            let proposed = Set(outcome.proposals.compactMap { $0.sender.map { String($0.localName) } })
            candidates = candidates.filter { proposed.contains(String($0.localName)) && !gone.contains(String($0.localName)) }
            if gone.isEmpty || candidates.isEmpty { break }
        }
        return try await emailEveryone(round, tracker: tracker)
    }
}

extension InformIssueToSolve {
    /// Adds the answers of one Contract Net to the round (a later answer replaces an
    /// earlier one of the same colleague) and tells the observer.
    private func record(_ outcome: ContractNetOutcome, in round: inout IssueRound) {
        for proposal in outcome.proposals {
            guard let employee = proposal.sender.map({ String($0.localName) }) else { continue }
            let reason = AcceptReason(content: proposal.content) ?? .free
            round.proposals[employee] = reason
            issueAgent.observe(.proposed(issue, by: employee, reason))
        }
        for refusal in outcome.refusals {
            guard let employee = refusal.sender.map({ String($0.localName) }) else { continue }
            let reason = RefusalReason(content: refusal.content) ?? .unreadableOffer
            round.refusals[employee] = reason
            issueAgent.observe(.refused(issue, by: employee, reason))
        }
        for case .failure(let failure) in outcome.results.values {
            guard let declination = Declination(content: failure.content), failure.sender.map({ String($0.localName) }) == declination.employee else { continue }
            round.declined[declination.employee] = declination.decision
            issueAgent.observe(.declined(issue, declination))
        }
        for participant in outcome.unanswered.keys.sorted(by: { $0.name < $1.name }) where !round.unreachable.contains(String(participant.localName)) {
            round.unreachable.append(String(participant.localName))
            issueAgent.observe(.unreachable(issue, employee: String(participant.localName)))
        }
    }
}

/// Calls a closure once, from whichever path gets there first.
final class ReportOnce: Sendable {
    private let body: Mutex<(@Sendable (IssueRound) -> Void)?>

    init(_ body: @escaping @Sendable (IssueRound) -> Void) {
        self.body = Mutex(body)
    }

    func callAsFunction(_ round: IssueRound) {
        let body = self.body.withLock { body in
            defer { body = nil }
            return body
        }
        body?(round)
    }
}
