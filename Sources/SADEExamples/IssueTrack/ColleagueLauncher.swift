import SADEACL
import SADECore
import SADEIssueTrack
import SADENotification

/// Starts and stops the agents of the connected colleagues in the issue-track demo:
/// in this process (``InProcessColleagues``) or as separate processes (`sade demo issues`).
public protocol ColleagueLauncher: Sendable {
    /// Starts the agents of `employees` (ids), publishing their services in `directory`;
    /// returns once they are published.
    func start(_ employees: [String], directory: AgentIdentifier) async throws
    /// Stops them.
    func stop() async
}

/// The colleagues' agents on the company's own platform, each reporting an issue it
/// takes as solved after `workTime`.
public actor InProcessColleagues: ColleagueLauncher {
    private let platform: Environment
    private let store: any CompanyStore
    private let calendar: OutboxClock
    private let workTime: Duration
    private var agents: [IssueAgent] = []

    /// Creates the launcher; agents read their employee and work from `store` and tell
    /// the date by `calendar`.
    public init(platform: Environment, store: any CompanyStore, calendar: OutboxClock, workTime: Duration) {
        self.platform = platform
        self.store = store
        self.calendar = calendar
        self.workTime = workTime
    }

    /// Starts one ``IssueAgent`` per employee.
    public func start(_ employees: [String], directory: AgentIdentifier) async throws {
        for id in employees {
            guard let employee = try await store.employee(id) else { throw IssueTrackError.unknownEmployee(id) }
            let agent = IssueAgent(
                employee: employee, environment: platform, directory: directory, calendar: calendar,
                workload: try await store.work(of: id), resolveAfter: workTime)
            try await agent.start()
            agents.append(agent)
        }
    }

    /// Stops them.
    public func stop() async {
        for agent in agents { await agent.stop() }
        agents = []
    }
}
