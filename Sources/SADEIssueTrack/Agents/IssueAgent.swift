import Foundation
import Logging
import SADEACL
import SADECore
import SADENotification

/// An employee's agent (iMobile's `IssueAgent`): it publishes the services the employee
/// offers in the company's directory facilitator, hands on the urgent issues the employee
/// registers (``InformIssueToSolve``), answers colleagues' offers
/// (``NotifyIssueWasTaken``) and reports the result of the issues it took
/// (``NotifyResultResolution``).
///
/// The directory may be on another platform (the company's, reached over TCP): services
/// are registered and searched with `fipa-agent-management` requests either way.
public final class IssueAgent: Sendable {
    /// The agent; its name is the employee's id.
    public let agent: Agent
    /// The employee it represents.
    public let employee: Employee
    /// The company's directory facilitator.
    public let directory: AgentIdentifier
    /// How far searches of ``directory`` go on to the DFs of the platforms found on the
    /// network (FIPA `:max-depth`): 0 for a company directory everyone publishes in; 1
    /// where each phone publishes in its own DF and they find each other (iMobile's Bonjour).
    public let searchDepth: Int
    /// The company's store and outbox, for an employee who registers issues.
    public let tracker: IssueTracker?
    /// The rules answers follow.
    public let rules: IssueTrackRules
    let calendar: OutboxClock
    let observe: @Sendable (IssueTrackEvent) -> Void

    /// How long directory requests may take.
    static let directoryTimeout: Duration = .seconds(10)

    /// Creates the agent (not started).
    ///
    /// - Parameters:
    ///   - employee: whom it represents; its id names the agent.
    ///   - environment: the platform it lives on (the employee's phone).
    ///   - directory: the company's DF, e.g. `df@company` with its TCP address; or the
    ///     phone's own, with `searchDepth` 1, when platforms find each other by discovery.
    ///   - searchDepth: see ``searchDepth``.
    ///   - calendar: today's date on the platform clock, for "due within two days".
    ///   - workload: the issues the employee already works on.
    ///   - reportersPlatform: the platform whose agents registered the issues in
    ///     `workload`: their results go to `<reporter>@<platform>`; nowhere when `nil`.
    ///   - tracker: the company's store and outbox, to register issues; `nil` for
    ///     an employee who only takes issues.
    ///   - rules: the paper's rules; the tracker's when there is one.
    ///   - resolveAfter: if set, the employee reports every issue they take as solved this
    ///     long after taking it (a scripted employee, for demos).
    ///   - observe: told what the agent does.
    ///   - ask: asks the employee whether they take an issue they were chosen for
    ///     (``NotifyIssueWasTaken``); `nil`: they take it by rule, unattended.
    public init(
        employee: Employee, environment: Environment, directory: AgentIdentifier, searchDepth: Int = 0, calendar: OutboxClock,
        workload: [Issue] = [], reportersPlatform: String? = nil, tracker: IssueTracker? = nil, rules: IssueTrackRules? = nil,
        resolveAfter: Duration? = nil, observe: @escaping @Sendable (IssueTrackEvent) -> Void = { _ in }, ask: AskEmployee? = nil
    ) {
        let rules = rules ?? tracker?.rules ?? IssueTrackRules()
        self.employee = employee
        self.directory = directory
        self.searchDepth = searchDepth
        self.tracker = tracker
        self.rules = rules
        self.calendar = calendar
        self.observe = observe
        let taken = NotifyIssueWasTaken(employee: employee.id, rules: rules, calendar: calendar, resolveAfter: resolveAfter, ask: ask, observe: observe)
        let results = MessageTemplate(performatives: [.inform], ontology: IssueMessages.ontology)
        agent = Agent(employee.id, on: environment) {
            Belief(.isConnected, true)
            Belief(.workload, workload.map { Assignment(issue: $0, requester: Self.requester(of: $0, on: reportersPlatform), conversationID: nil) })
            Belief(.openOffers, [:])
            taken
            MessageHandler(results) { _, message in
                guard let tracker, let resolution = Resolution(content: message.content) else { return }
                Task { await Self.record(resolution, tracker: tracker, observe: observe) }
            }
        }
    }

    /// The agent that registered `issue`, when it is known on which platform.
    private static func requester(of issue: Issue, on platform: String?) -> AgentIdentifier? {
        guard let platform, let reporter = issue.reporter else { return nil }
        return AgentIdentifier(name: "\(reporter)@\(platform)")
    }

    /// The services the agent publishes: one per service the employee offers, of that
    /// type, answering Contract Net in the issue-track ontology.
    public var services: [ServiceDescription] {
        employee.services.map { service in
            ServiceDescription(
                name: "\(service):\(employee.id)", type: service, protocols: ["fipa-contract-net"],
                ontologies: [IssueMessages.ontology], languages: ["json"], properties: ["employee": employee.id])
        }
    }

    /// Starts the agent and publishes its services in the company's directory; if they
    /// cannot be published, the agent is stopped again and the error thrown.
    public func start() async throws {
        try await agent.start()
        guard !services.isEmpty else { return }
        do {
            try await agent.register(services, withDirectory: directory, timeout: Self.directoryTimeout)
        } catch {
            await agent.stop()
            throw error
        }
    }

    /// Withdraws the services (if the directory answers, and unless told not to: the
    /// company may be gone) and stops the agent.
    public func stop(withdrawingServices: Bool = true) async {
        if withdrawingServices, !services.isEmpty { try? await agent.deregister(fromDirectory: directory, timeout: Self.directoryTimeout) }
        await agent.stop()
    }

    /// Says whether the employee is connected to the company network; while not, the
    /// agent refuses every offer.
    public func setConnected(_ connected: Bool) async {
        await agent.setBelief(.isConnected, to: connected)
    }

    /// The issues the employee works on now.
    public var workload: [Issue] {
        get async { (await agent.beliefs[.workload] ?? []).map(\.issue) }
    }

    /// Registers a new issue in the company's store and, when it is urgent, hands it on
    /// (runs ``InformIssueToSolve`` as a behaviour of the agent). Returns what became of it.
    ///
    /// - Throws: ``IssueTrackError/storage(_:)``, ``IssueTrackError/unknownService(_:)``, or
    ///   ``IssueTrackError/notAReporter(_:)`` when the agent has no tracker.
    public func register(_ issue: Issue) async throws -> IssueRound {
        guard let tracker else { throw IssueTrackError.notAReporter(employee.id) }
        var issue = issue
        issue.reporter = employee.id
        return await handOn(try await tracker.store.register(issue))
    }

    /// Hands on an issue already in the company's store (runs ``InformIssueToSolve``):
    /// for callers that answer as soon as the issue is stored and let the round run on.
    /// Returns what became of it; `interrupted` when the agent is not active.
    public func handOn(_ stored: Issue) async -> IssueRound {
        await withCheckedContinuation { continuation in
            let behaviour = InformIssueToSolve(issue: stored, by: self) { round in continuation.resume(returning: round) }
            Task {
                if await !agent.addBehaviourIfActive(behaviour) { behaviour.report(IssueRound(issue: stored)) }
            }
        }
    }

    /// Reports the result of issue `id`, which the employee worked on, to whoever asked
    /// (runs ``NotifyResultResolution``); does nothing for an issue not in the workload.
    public func report(_ id: Int64, solved: Bool, note: String) async {
        await agent.addBehaviour(NotifyResultResolution(issue: id, employee: employee.id, solved: solved, note: note, observe: observe))
    }

    private static func record(_ resolution: Resolution, tracker: IssueTracker, observe: @Sendable (IssueTrackEvent) -> Void) async {
        do {
            try await tracker.store.resolve(resolution.issue, solved: resolution.solved, note: resolution.note)
            if let issue = try await tracker.store.issue(resolution.issue) { observe(.resolved(issue, resolution)) }
        } catch {
            Logger(label: "sade.issuetrack").error("resolution not recorded", metadata: ["issue": "\(resolution.issue)", "error": "\(error)"])
        }
        await tracker.resolutions.record(resolution)
    }
}
