import Foundation
import Logging
import SADEACL
import SADECore
import SADENotification

/// The issue track as a long-running service (inside `sade serve`): one ``IssueAgent``
/// per employee in the company's store, all on one platform whose directory
/// facilitator holds their services. Any employee's agent may register an issue; the
/// round that hands it on (``InformIssueToSolve``) runs in the background, and its
/// outcome is kept for whoever asks.
///
/// Employees out of the office stay so across restarts (``CompanyStore/setConnected(_:_:)``):
/// their agents refuse every offer as not connected.
public actor IssueTrackOffice {
    /// Where a round stands.
    public enum RoundState: Hashable, Sendable {
        /// Colleagues are being asked.
        case running
        /// The round is over.
        case finished(IssueRound)
    }

    /// The company's data.
    public nonisolated let store: CompanyStore
    /// The platform the agents live on.
    public nonisolated let platform: Environment
    /// The store, outbox, rules and timing every agent registers issues with.
    public nonisolated let tracker: IssueTracker
    private let logger = Logger(label: "sade.issuetrack.office")
    private var agents: [String: IssueAgent] = [:]
    private var rounds: [Int64: RoundState] = [:]
    private var runningRounds: [Int64: Task<Void, Never>] = [:]
    private var reporting: Set<Int64> = []
    private var lastSave: Task<IssueTrackError?, Never>?

    /// An office for the company in `store`, with agents on `platform`, e-mailing through
    /// `outbox` (started and stopped with the office); nothing runs until ``start()``.
    public init(
        store: CompanyStore, outbox: NotificationOutbox, platform: Environment, proposalDeadline: Duration = .seconds(5),
        confirmationTimeout: Duration = .seconds(5)
    ) {
        self.store = store
        self.platform = platform
        tracker = IssueTracker(store: store, outbox: outbox, proposalDeadline: proposalDeadline, confirmationTimeout: confirmationTimeout)
    }

    /// Starts the outbox and an agent for every employee, connected unless recorded as
    /// out of the office. An agent that cannot start is logged and left out; when the
    /// store cannot be read, everything started is stopped again and the error thrown.
    ///
    /// Rounds do not survive a restart: an urgent issue whose round was interrupted
    /// stays open until registered again.
    public func start() async throws(IssueTrackError) {
        await tracker.outbox.start()
        let employees: [Employee], away: Set<String>
        do {
            (employees, away) = (try store.company().employees, try store.disconnectedEmployees())
        } catch {
            await shutdown()
            throw error
        }
        for employee in employees {
            do {
                try await startAgent(for: employee, connected: !away.contains(employee.id))
            } catch {
                logger.error("an employee's agent did not start", metadata: ["employee": "\(employee.id)", "error": "\(error)"])
            }
        }
    }

    /// Stops every agent (a running round ends as interrupted), then the outbox.
    public func shutdown() async {
        for agent in agents.values { await agent.stop() }
        agents = [:]
        for round in runningRounds.values { await round.value }
        await tracker.outbox.stop()
    }

    // MARK: The company

    /// The company, with its services, employees and issues.
    public func company() throws(IssueTrackError) -> Company {
        try store.company()
    }

    /// The employees out of the office, by id.
    public func disconnected() throws(IssueTrackError) -> Set<String> {
        try store.disconnectedEmployees()
    }

    /// Adds a service, or updates its description.
    public func save(_ service: Service) throws(IssueTrackError) {
        try store.save(service)
    }

    /// Adds an employee and starts their agent, or replaces their data and restarts the
    /// agent so that it publishes the services they offer now. Saves run one after the
    /// other, so two of the same employee never race for the agent's name.
    public func save(_ employee: Employee) async throws(IssueTrackError) {
        let previous = lastSave
        let saving = Task { () async -> IssueTrackError? in
            _ = await previous?.value
            do throws(IssueTrackError) { try await self.replaceAgent(with: employee) } catch { return error }
            return nil
        }
        lastSave = saving
        if let error = await saving.value { throw error }
    }

    private func replaceAgent(with employee: Employee) async throws(IssueTrackError) {
        try store.save(employee)
        if let running = agents.removeValue(forKey: employee.id) { await running.stop() }
        // Read after the wait: a presence change or another save may have come meanwhile.
        guard let stored = try store.employee(employee.id) else { throw .unknownEmployee(employee.id) }
        try await startAgent(for: stored, connected: !(try store.disconnectedEmployees().contains(employee.id)))
    }

    /// Says whether an employee is connected to the company network (in the office).
    public func setConnected(_ employee: String, _ connected: Bool) async throws(IssueTrackError) {
        try store.setConnected(employee, connected)
        await agents[employee]?.setConnected(connected)
    }

    // MARK: Issues

    /// Registers an issue on behalf of `reporter` and, when it is urgent, starts handing
    /// it on; returns it as stored, at once. ``round(of:)`` tells how the round goes.
    ///
    /// - Throws: ``IssueTrackError/unknownEmployee(_:)``, ``IssueTrackError/unknownService(_:)``.
    public func register(_ issue: Issue, reporter: String) throws(IssueTrackError) -> Issue {
        guard let agent = agents[reporter] else { throw .unknownEmployee(reporter) }
        var issue = issue
        issue.reporter = reporter
        let stored = try store.register(issue)
        guard let id = stored.id else { return stored }
        rounds[id] = .running
        runningRounds[id] = Task {
            let round = await agent.handOn(stored)
            self.finish(id, round)
        }
        return stored
    }

    /// Every issue, by number, with its round. The rounds are read first: a round that
    /// is over has already stored its assignment, so the two always agree.
    public func issues() throws(IssueTrackError) -> [(issue: Issue, round: RoundState?)] {
        let rounds = rounds
        return try store.company().issues.map { ($0, $0.id.flatMap { rounds[$0] }) }
    }

    /// The issue with this number, if any, with its round (read in the same order).
    public func issue(_ id: Int64) throws(IssueTrackError) -> (issue: Issue, round: RoundState?)? {
        let round = rounds[id]
        return try store.issue(id).map { ($0, round) }
    }

    /// How the round of issue `id` went, if it ran since the office started.
    public func round(of id: Int64) -> RoundState? {
        rounds[id]
    }

    /// Waits until the round of issue `id` is over and returns it; `nil` when none ran
    /// since the office started.
    public func finishedRound(of id: Int64) async -> IssueRound? {
        if let running = runningRounds[id] { await running.value }
        guard case .finished(let round) = rounds[id] else { return nil }
        return round
    }

    /// Reports the result of issue `id` through its assignee's agent
    /// (``NotifyResultResolution``) and waits, up to `timeout`, until the reporter's
    /// agent has recorded it; returns the issue as stored then.
    ///
    /// - Throws: ``IssueTrackError/unknownIssue(_:)``, ``IssueTrackError/notInProgress(_:)``,
    ///   ``IssueTrackError/resultPending(_:)`` while another report of it is on its way,
    ///   ``IssueTrackError/resultNotRecorded(_:)`` when the reporter's agent did not
    ///   record it in time.
    public func report(_ id: Int64, solved: Bool, note: String, timeout: Duration = .seconds(10)) async throws(IssueTrackError) -> Issue {
        guard let issue = try store.issue(id) else { throw .unknownIssue(id) }
        guard !reporting.contains(id) else { throw .resultPending(id) }
        guard issue.status == .inProgress, let assignee = issue.assignee, let agent = agents[assignee] else { throw .notInProgress(id) }
        reporting.insert(id)
        defer { reporting.remove(id) }
        await agent.report(id, solved: solved, note: note)
        guard await tracker.resolution(of: id, within: timeout) != nil else { throw .resultNotRecorded(id) }
        return try store.issue(id) ?? issue
    }

    // MARK: Agents

    private func startAgent(for employee: Employee, connected: Bool) async throws(IssueTrackError) {
        let agent = IssueAgent(
            employee: employee, environment: platform, directory: platform.dfIdentifier, calendar: tracker.outbox.clock,
            workload: try store.work(of: employee.id), reportersPlatform: platform.name,
            tracker: tracker)
        do {
            try await agent.start()
        } catch {
            throw .agentNotStarted(employee.id, reason: "\(error)")
        }
        if !connected { await agent.setConnected(false) }
        agents[employee.id] = agent
    }

    private func finish(_ id: Int64, _ round: IssueRound) {
        rounds[id] = .finished(round)
        runningRounds[id] = nil
    }
}
