import Foundation
import Logging
import SADEACL
import SADECore
import SADENotification

/// The issue track as a long-running service (inside `sade serve`): one ``IssueAgent``
/// per employee in the company's store, all on one platform whose directory
/// facilitator holds their services. Any employee's agent may register an issue; the
/// round that hands it on (``InformIssueToSolve``) runs in the background, and where it
/// stands is kept in the store for whoever asks, on any node.
///
/// Employees out of the office stay so across restarts (``CompanyStore/setConnected(_:_:)``):
/// their agents refuse every offer as not connected.
///
/// With several nodes on one database the office is a singleton: its agents run on one
/// node at a time (the one holding the singletons' lease calls ``start()``, and
/// ``close()`` when it loses it). Everywhere, reads come from the shared store; on a
/// node where the office is closed, what needs its agents (saving an employee, a
/// presence, an issue, a result) goes to the open one through ``forward`` (an
/// ``OfficeCalls`` relay) and that one's ``answer(_:)``.
public actor IssueTrackOffice {
    /// The company's data.
    public nonisolated let store: any CompanyStore
    /// The platform the agents live on.
    public nonisolated let platform: Environment
    /// The store, outbox, rules and timing every agent registers issues with.
    public nonisolated let tracker: IssueTracker
    /// Whether the office starts and stops the outbox (its own); not when it shares the node's.
    private let ownsOutbox: Bool
    private let logger = Logger(label: "sade.issuetrack.office")
    /// Whether the agents run here (between ``start()`` and ``close()``).
    public private(set) var isOpen = false
    /// Whether every agent has had its start since the office opened: until then a call
    /// for an employee without an agent is ``IssueTrackError/unavailable(_:)``, not
    /// unknown, and other nodes' calls wait.
    private var isStarted = false

    /// Whether the office takes other nodes' calls: open, its agents started.
    public var isAnswering: Bool { isOpen && isStarted }
    /// Sends a call to the node where the office is open; `nil` with one node.
    private var forward: (@Sendable (OfficeCall) async throws(IssueTrackError) -> OfficeAnswer)?
    private var agents: [String: IssueAgent] = [:]
    private var runningRounds: [Int64: Task<Void, Never>] = [:]
    private var reporting: Set<Int64> = []
    private var lastSave: Task<IssueTrackError?, Never>?
    /// Who is asked and told, when people are in the loop.
    private let people: IssuePeople?
    private let questions = IssueQuestions()
    /// Rounds whose end is stored (or on its way): a question's state never overwrites it.
    private var endedRounds: Set<Int64> = []
    /// The last write of a round's state: writes are stored one after the other, in the order made.
    private var lastRoundWrite: Task<Void, Never>?

    /// An office for the company in `store`, with agents on `platform`, e-mailing through
    /// `outbox` — started and stopped with the office unless `ownsOutbox` is false (the
    /// node's own outbox, shared); nothing runs until ``start()``. With `people`, the
    /// employee chosen is asked and decides (the reporter's agent waits for the answer
    /// until the question's deadline, and a little longer), and reporters hear the news.
    public init(
        store: any CompanyStore, outbox: NotificationOutbox, platform: Environment, proposalDeadline: Duration = .seconds(5),
        confirmationTimeout: Duration = .seconds(5), ownsOutbox: Bool = true, people: IssuePeople? = nil
    ) {
        self.store = store
        self.platform = platform
        self.ownsOutbox = ownsOutbox
        self.people = people
        let confirmation = people?.deadline.map { max(confirmationTimeout, $0 + Self.answerMargin) } ?? confirmationTimeout
        tracker = IssueTracker(store: store, outbox: outbox, proposalDeadline: proposalDeadline, confirmationTimeout: confirmation)
    }

    /// How much longer than a question's deadline the reporter's agent waits for the
    /// chosen employee's agent to confirm: its answer, after the deadline, has to travel.
    static let answerMargin: Duration = .seconds(10)

    /// Where the calls that need the agents go while the office is closed here (another
    /// node); `nil`: nowhere (this node stops).
    public func forwardCalls(_ forward: (@Sendable (OfficeCall) async throws(IssueTrackError) -> OfficeAnswer)?) {
        self.forward = forward
    }

    /// Opens the office: starts the outbox (if its own) and an agent for every employee,
    /// connected unless recorded as out of the office. An agent that cannot start is
    /// logged and left out; when the store cannot be read, everything started is stopped
    /// again and the error thrown.
    ///
    /// Rounds do not survive a restart or a move to another node: a round the store
    /// shows running is recorded as interrupted, and its urgent issue stays open until
    /// registered again.
    public func start() async throws(IssueTrackError) {
        guard !isOpen else { return }
        if ownsOutbox { await tracker.outbox.start() }
        let employees: [Employee]
        do {
            let interrupted = try await store.interruptRunningRounds()
            if !interrupted.isEmpty { logger.notice("rounds interrupted by the last stop", metadata: ["issues": "\(interrupted)"]) }
            employees = try await store.company().employees
        } catch {
            await shutdown()
            throw error
        }
        isOpen = true
        for employee in employees where isOpen {
            do {
                try await startAgent(for: employee)
            } catch {
                logger.error("an employee's agent did not start", metadata: ["employee": "\(employee.id)", "error": "\(error)"])
            }
        }
        isStarted = isOpen
    }

    /// Closes the office here (another node takes it over): stops every agent, a running
    /// round ending as interrupted; the outbox goes on.
    public func close() async {
        isOpen = false
        isStarted = false
        _ = await lastSave?.value  // a save restarting an agent finishes first (and starts none now)
        let stopping = agents.values
        agents = [:]
        for agent in stopping { await agent.stop() }
        await questions.closeAll()  // after the agents: an answer now reaches nobody, and nobody is asked next
        let rounds = runningRounds.values
        for round in rounds { await round.value }
    }

    /// Closes the office, then stops the outbox if it is its own.
    public func shutdown() async {
        await close()
        if ownsOutbox { await tracker.outbox.stop() }
    }

    // MARK: The company

    /// The company, with its services, employees and issues.
    public func company() async throws(IssueTrackError) -> Company {
        try await store.company()
    }

    /// The employees out of the office, by id.
    public func disconnected() async throws(IssueTrackError) -> Set<String> {
        try await store.disconnectedEmployees()
    }

    /// Adds a service, or updates its description.
    public func save(_ service: Service) async throws(IssueTrackError) {
        try await store.save(service)
    }

    /// Adds an employee and starts their agent, or replaces their data and restarts the
    /// agent so that it publishes the services they offer now. Saves run one after the
    /// other, so two of the same employee never race for the agent's name.
    public func save(_ employee: Employee) async throws(IssueTrackError) {
        if let forward = forwardingTo() {
            try Self.expectDone(try await forward(.save(employee)))
            return
        }
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
        try await store.save(employee)
        if let running = agents.removeValue(forKey: employee.id) {
            await running.stop()
            await questions.closeAll(of: employee.id)  // their stopped agent could not act on an answer
        }
        // Read after the wait: a presence change or another save may have come meanwhile.
        guard let stored = try await store.employee(employee.id) else { throw .unknownEmployee(employee.id) }
        guard isOpen else { return }  // closed meanwhile: the next office starts the agent
        try await startAgent(for: stored)
    }

    /// Says whether an employee is connected to the company network (in the office).
    public func setConnected(_ employee: String, _ connected: Bool) async throws(IssueTrackError) {
        if let forward = forwardingTo() {
            try Self.expectDone(try await forward(.setConnected(employee, connected)))
            return
        }
        try await store.setConnected(employee, connected)
        await agents[employee]?.setConnected(connected)
    }

    // MARK: Issues

    /// Registers an issue on behalf of `reporter` and, when it is urgent, starts handing
    /// it on; returns it as stored, at once. ``round(of:)`` tells how the round goes.
    ///
    /// - Throws: ``IssueTrackError/unknownEmployee(_:)``, ``IssueTrackError/unknownService(_:)``.
    public func register(_ issue: Issue, reporter: String) async throws(IssueTrackError) -> Issue {
        if let forward = forwardingTo() { return try Self.expectIssue(try await forward(.register(issue, reporter: reporter))) }
        guard let agent = agents[reporter] else {
            throw isStarted ? .unknownEmployee(reporter) : .unavailable("the issue track's office is opening; try again")
        }
        var issue = issue
        issue.reporter = reporter
        let stored = try await store.register(issue)
        guard let id = stored.id else { return stored }
        do {
            try await store.setRound(.running, of: id)
        } catch {
            // Stored: the round runs anyway, and its end is stored when it comes.
            logger.warning("a round's start was not stored", metadata: ["issue": "\(id)", "error": "\(error)"])
        }
        // Closed meanwhile, the agent is stopped: the round ends at once as interrupted, and says so.
        runningRounds[id] = Task {
            let round = await agent.handOn(stored)
            await self.finish(id, round)
        }
        return stored
    }

    /// Every issue, by number, with its round. The rounds are read first: a round that
    /// is over has already stored its assignment, so the two always agree.
    public func issues() async throws(IssueTrackError) -> [(issue: Issue, round: RoundState?)] {
        let rounds = try await store.rounds(of: nil)
        return try await store.company().issues.map { ($0, $0.id.flatMap { rounds[$0] }) }
    }

    /// The issue with this number, if any, with its round (read in the same order).
    public func issue(_ id: Int64) async throws(IssueTrackError) -> (issue: Issue, round: RoundState?)? {
        let round = try await store.round(of: id)
        return try await store.issue(id).map { ($0, round) }
    }

    /// Where the round of issue `id` stands, if it had one.
    public func round(of id: Int64) async throws(IssueTrackError) -> RoundState? {
        try await store.round(of: id)
    }

    /// Waits until the round of issue `id` is over and returns it; `nil` when none ran
    /// since the office opened here.
    public func finishedRound(of id: Int64) async throws(IssueTrackError) -> IssueRound? {
        if let running = runningRounds[id] { await running.value }
        guard case .finished(let round) = try await store.round(of: id) else { return nil }
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
        if let forward = forwardingTo() { return try Self.expectIssue(try await forward(.report(id, solved: solved, note: note))) }
        guard let issue = try await store.issue(id) else { throw .unknownIssue(id) }
        guard !reporting.contains(id) else { throw .resultPending(id) }
        guard issue.status == .inProgress, let assignee = issue.assignee else { throw .notInProgress(id) }
        guard let agent = agents[assignee] else {
            throw isStarted ? .notInProgress(id) : .unavailable("the issue track's office is opening; try again")
        }
        reporting.insert(id)
        defer { reporting.remove(id) }
        await agent.report(id, solved: solved, note: note)
        guard await tracker.resolution(of: id, within: timeout) != nil else { throw .resultNotRecorded(id) }
        return try await store.issue(id) ?? issue
    }

    // MARK: People

    /// The open question with this id (its round is asking it), if any.
    public func question(_ id: UUID) async throws(IssueTrackError) -> IssueQuestion? {
        for case .asking(let question) in try await store.rounds(of: nil).values where question.id == id { return question }
        return nil
    }

    /// The employee's answer to question `id`: *Take it* makes the issue theirs, *Can't*
    /// asks the next candidate. Returns once the agent has it; the round goes on.
    ///
    /// - Throws: ``IssueTrackError/questionClosed(_:)`` when the question is not open
    ///   (answered already, or past its deadline).
    public func answer(_ id: UUID, _ decision: EmployeeDecision) async throws(IssueTrackError) {
        if let forward = forwardingTo() {
            try Self.expectDone(try await forward(.answer(id, decision)))
            return
        }
        guard await questions.close(id, with: decision) != nil else { throw .questionClosed(id) }
    }

    /// Asks `employee` whether they take `issue` (their agent was chosen) and waits for
    /// the answer; the round shows the question meanwhile.
    private func ask(_ employee: String, about issue: Issue, within deadline: Duration) async -> EmployeeDecision {
        guard let id = issue.id, isOpen, runningRounds[id] != nil, !endedRounds.contains(id) else { return .noAnswer }
        let now = tracker.now
        let question = IssueQuestion(issue: issue, employee: employee, asked: now, deadline: now.addingTimeInterval(deadline.seconds))
        // Open before anyone sees it: an answer can come as soon as it is stored or pushed.
        await questions.open(question, until: platform.clock.elapsed + deadline, on: platform.clock)
        await writeRound(.asking(question), of: id, whileRunning: true)
        await people?.tell(.question(question))
        let decision = await questions.answer(to: question.id)
        guard isOpen else { return decision }  // closing: the round is interrupted, nobody is told anything
        await writeRound(.running, of: id, whileRunning: true)
        await people?.tell(.closed(question, decision))
        return decision
    }

    /// Stores a round's state once every write made before it is stored; a running
    /// round's (`whileRunning`) only if the round has not ended meanwhile.
    private func writeRound(_ state: RoundState, of id: Int64, whileRunning: Bool = false) async {
        let previous = lastRoundWrite
        let write = Task {
            _ = await previous?.value
            if whileRunning, endedRounds.contains(id) { return }
            do {
                try await store.setRound(state, of: id)
            } catch {
                logger.warning("a round's state was not stored", metadata: ["issue": "\(id)", "error": "\(error)"])
            }
        }
        lastRoundWrite = write
        await write.value
    }

    /// Tells the reporters what became of their issues.
    private static func tell(_ people: IssuePeople?, _ event: IssueTrackEvent) {
        guard let people else { return }
        switch event {
        case .taken(let issue, let employee): Task { await people.tell(.taken(issue, by: employee)) }
        case .resolved(let issue, let resolution): Task { await people.tell(.resolved(issue, resolution)) }
        default: break
        }
    }

    // MARK: Calls from other nodes

    /// Answers a call another node forwarded; `nil` while the office is closed here (the
    /// open one answers) or still starting its agents.
    public func answer(_ call: OfficeCall) async -> OfficeAnswer? {
        guard isOpen, isStarted else { return nil }
        do throws(IssueTrackError) {
            switch call {
            case .save(let employee):
                try await save(employee)
                return .done
            case .setConnected(let employee, let connected):
                try await setConnected(employee, connected)
                return .done
            case .register(let issue, let reporter):
                return .issue(try await register(issue, reporter: reporter))
            case .report(let id, let solved, let note):
                return .issue(try await report(id, solved: solved, note: note))
            case .answer(let question, let decision):
                try await answer(question, decision)
                return .done
            }
        } catch {
            return .failed(error)
        }
    }

    /// Where calls go when the agents are elsewhere: `nil` when they run here, or with
    /// one node.
    private func forwardingTo() -> (@Sendable (OfficeCall) async throws(IssueTrackError) -> OfficeAnswer)? {
        isOpen ? nil : forward
    }

    private static func expectDone(_ answer: OfficeAnswer) throws(IssueTrackError) {
        switch answer {
        case .done: return
        case .failed(let error): throw error
        case .issue: throw .storage("the office answered with an issue where none was expected")
        }
    }

    private static func expectIssue(_ answer: OfficeAnswer) throws(IssueTrackError) -> Issue {
        switch answer {
        case .issue(let issue): return issue
        case .failed(let error): throw error
        case .done: throw .storage("the office answered without the issue")
        }
    }

    // MARK: Agents

    /// Starts `employee`'s agent, connected unless recorded as out of the office (read
    /// now: a change made while other agents started counts); stopped again at once if
    /// the office closed meanwhile.
    private func startAgent(for employee: Employee) async throws(IssueTrackError) {
        var ask: AskEmployee?
        if let deadline = people?.deadline {
            ask = { [id = employee.id] issue in await self.ask(id, about: issue, within: deadline) }
        }
        let agent = IssueAgent(
            employee: employee, environment: platform, directory: platform.dfIdentifier, calendar: tracker.outbox.clock,
            workload: try await store.work(of: employee.id), reportersPlatform: platform.name, tracker: tracker,
            observe: { [people] event in Self.tell(people, event) }, ask: ask)
        do {
            try await agent.start()
        } catch {
            throw .agentNotStarted(employee.id, reason: "\(error)")
        }
        guard isOpen else {
            await agent.stop()
            return
        }
        agents[employee.id] = agent
        // Read after the agent is listed: a change arriving from now on reaches it through setConnected.
        do {
            if try await store.disconnectedEmployees().contains(employee.id) { await agent.setConnected(false) }
        } catch {
            logger.warning("presence not read; the agent starts connected", metadata: ["employee": "\(employee.id)", "error": "\(error)"])
        }
    }

    private func finish(_ id: Int64, _ round: IssueRound) async {
        endedRounds.insert(id)
        await writeRound(.finished(round), of: id)
        runningRounds[id] = nil
    }
}

/// A call that needs the office's agents, sent by a node where the office is closed to
/// the node where it is open.
public enum OfficeCall: Hashable, Sendable, Codable {
    case save(Employee)
    case setConnected(String, Bool)
    case register(Issue, reporter: String)
    case report(Int64, solved: Bool, note: String)
    case answer(UUID, EmployeeDecision)
}

/// The open office's answer to an ``OfficeCall``.
public enum OfficeAnswer: Hashable, Sendable, Codable {
    case done
    case issue(Issue)
    case failed(IssueTrackError)
}
