import SADEACL
import SADECore
import SADENotification

/// iMobile's `NotifyIssueWasTakenBehavior`: the employee's side of the Contract Net.
///
/// On an offered issue (a `cfp` in the issue-track ontology) it answers by the
/// ``IssueTrackRules``: a `propose` whose content is the ``AcceptReason``, or a `refuse`
/// whose content is the ``RefusalReason``. When its proposal is accepted the issue joins
/// the employee's workload and the requester is told `(taken :issue N :by id)`.
///
/// With ``ask``, the rules only choose whom to ask: once accepted, the employee is asked
/// (iMobile §IV) and decides. *Can't*, or silence until the question's deadline, is a
/// `failure` whose content is the ``Declination``; the requester asks the next candidate.
public struct NotifyIssueWasTaken: AgentPart {
    /// The employee's id.
    public let employee: String
    /// The rules answers follow.
    public let rules: IssueTrackRules
    let calendar: OutboxClock
    let resolveAfter: Duration?
    /// Asks the employee whether they take an accepted issue; `nil`: they take it by rule.
    let ask: AskEmployee?
    let observe: @Sendable (IssueTrackEvent) -> Void

    /// Creates the behaviour for `employee`; with `resolveAfter`, every issue taken is
    /// reported solved that long after (a scripted employee); with `ask`, the employee
    /// decides whether to take an accepted issue.
    public init(
        employee: String, rules: IssueTrackRules, calendar: OutboxClock, resolveAfter: Duration? = nil, ask: AskEmployee? = nil,
        observe: @escaping @Sendable (IssueTrackEvent) -> Void = { _ in }
    ) {
        self.ask = ask
        self.employee = employee
        self.rules = rules
        self.calendar = calendar
        self.resolveAfter = resolveAfter
        self.observe = observe
    }

    /// Adds the Contract Net responder to the agent.
    public func contribute(to definition: inout AgentDefinition) {
        definition.handlers.append(responder.handler)
    }

    var responder: ContractNetResponder {
        let offers = MessageTemplate(performatives: [.cfp], ontology: IssueMessages.ontology)
        return ContractNetResponder(offers) { [rules, calendar, observe] agent, cfp in
            guard let issue = IssueMessages.issue(in: cfp), issue.id != nil else { return .refuse(RefusalReason.unreadableOffer.content) }
            let workload = (agent.beliefs[.workload] ?? []).map(\.issue)
            let answer = rules.answer(workingOn: workload, isConnected: agent.beliefs[.isConnected] ?? true, at: calendar.now)
            observe(.answered(issue, answer))
            switch answer {
            case .accept(let reason):
                agent.setOpenOffer(issue, in: cfp.conversationID ?? "")
                return .propose(reason.content)
            case .refuse(let reason):
                return .refuse(reason.content)
            }
        } perform: { [employee, resolveAfter, ask, observe] agent, accepted in
            let conversation = accepted.conversationID ?? ""
            guard let issue = await agent.beliefs[.openOffers]?[conversation], let id = issue.id else {
                throw IssueTrackError.noOpenOffer(conversation)
            }
            await agent.setOpenOffer(nil, in: conversation)
            if let ask {
                let decision = await ask(issue)
                observe(.decided(issue, by: employee, decision))
                guard decision == .take else { throw Declination(employee: employee, decision: decision) }
            }
            var taken = issue
            taken.status = .inProgress
            taken.assignee = employee
            await agent.takeOn(Assignment(issue: taken, requester: accepted.sender, conversationID: conversation))
            if let resolveAfter {
                await agent.addBehaviour(NotifyResultResolution(
                    issue: id, employee: employee, solved: true, note: "done by \(employee)'s agent after \(resolveAfter)",
                    after: resolveAfter, observe: observe))
            }
            return IssueMessages.taken(id, by: employee)
        } rejected: { agent, rejection in
            agent.setOpenOffer(nil, in: rejection.conversationID ?? "")
        }
    }
}
