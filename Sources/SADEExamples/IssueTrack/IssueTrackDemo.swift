import Foundation
import SADEACL
import SADECore
import SADEIssueTrack
import SADENotification

/// Runs the issue-track scenario of iMobile §IV (Figure 3) and tells it step by step:
/// Robert registers a critical infrastructure issue due tomorrow; his agent finds Tony
/// and Maria in the directory, offers them the issue, Maria refuses (busy with a critical
/// issue), Tony takes it and later reports it solved. A medium issue is not offered. A
/// prototyping issue, whose providers are out of the office, goes out by e-mail.
public struct IssueTrackDemo: Sendable {
    /// Why the demo did not complete.
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// A step took longer than the timeout.
        case timedOut(step: String)

        /// A sentence saying what went wrong.
        public var description: String {
            switch self {
            case .timedOut(let step): "timed out while waiting for: \(step)"
            }
        }
    }

    /// What happened.
    public struct Report: Hashable, Sendable {
        /// The critical infrastructure issue.
        public let outage: IssueRound
        /// Tony's report on it.
        public let resolution: Resolution
        /// The medium issue.
        public let typo: IssueRound
        /// The prototyping issue.
        public let prototype: IssueRound
    }

    /// How long each step may take, in real time.
    public var timeout: Duration
    /// Whether the colleagues publish their services on their own phones, found on the
    /// network (iMobile's Bonjour), rather than in the company's DF: Robert's agent then
    /// searches its DF with `:max-depth 1`, reaching the DFs of the platforms found.
    public var discovering: Bool

    /// Configures a run.
    public init(timeout: Duration = .seconds(60), discovering: Bool = false) {
        self.timeout = timeout
        self.discovering = discovering
    }

    /// Runs the story with Robert's agent on `platform` (the company's, whose DF the
    /// colleagues publish in), the company's data in `store` (seeded here) and e-mail
    /// through `outbox` (started and stopped here). `launcher` starts the connected
    /// colleagues; each line of the story goes to `write`.
    public func run(
        on platform: Environment, store: any CompanyStore, outbox: NotificationOutbox, launcher: any ColleagueLauncher,
        narrator: Narrator
    ) async throws -> Report {
        let now = outbox.clock.now
        try await IssueTrackScenario.seed(store, now: now)
        let names = Dictionary(uniqueKeysWithValues: IssueTrackScenario.employees.map { ($0.id, $0.firstName) })
        let away = IssueTrackScenario.outOfOffice.sorted().compactMap { names[$0] }
        narrator.say("Company", "6 employees; \(away.joined(separator: " and ")) are out of the office (not connected)")
        narrator.say("Company", "Maria works on critical issue #1 (due tomorrow), Lucas on medium issue #2")

        // The DF with the addresses where colleagues on other platforms reach it.
        let directory = AgentIdentifier(name: platform.dfIdentifier.name, addresses: platform.addresses)
        await outbox.start()
        let tracker = IssueTracker(store: store, outbox: outbox, proposalDeadline: .seconds(10), confirmationTimeout: .seconds(10))
        let robert = IssueAgent(
            employee: try await store.employee(IssueTrackScenario.reporter)!, environment: platform, directory: directory,
            searchDepth: discovering ? 1 : 0, calendar: outbox.clock, tracker: tracker, observe: { event in Self.tell(event, names: names, narrator: narrator) })
        do {
            try await robert.start()
            try await within("the colleagues' agents to publish their services") {
                try await launcher.start(IssueTrackScenario.connectedColleagues, directory: directory)
            }
            let connected = IssueTrackScenario.connectedColleagues.compactMap { names[$0] }
            narrator.say(
                "Company",
                "\(connected.joined(separator: ", ")) are connected; their agents published their services "
                    + (discovering ? "on their own phones, found on the network with no address given" : "in df@\(platform.name)"))

            let outage = try await register(IssueTrackScenario.outage(now: now), by: robert, narrator: narrator)
            var resolution = Resolution(issue: 0, employee: "", solved: false, note: "")
            if let id = outage.issue.id, outage.takenBy != nil {
                resolution = try await within("the result of issue #\(id)") { await tracker.resolution(of: id) }
            }
            let typo = try await register(IssueTrackScenario.typo(now: now), by: robert, narrator: narrator)
            let prototype = try await register(IssueTrackScenario.demoPrototype(now: now), by: robert, narrator: narrator)
            await launcher.stop()
            await robert.stop()
            await outbox.stop()
            return Report(outage: outage, resolution: resolution, typo: typo, prototype: prototype)
        } catch {
            await launcher.stop()
            await robert.stop()
            await outbox.stop()
            throw error
        }
    }

    private func register(_ issue: Issue, by robert: IssueAgent, narrator: Narrator) async throws -> IssueRound {
        let due = issue.deadline.timeIntervalSince(robert.tracker?.now ?? .now) / 3600
        narrator.say("Robert", "registers \(issue.priority.rawValue) issue \"\(issue.title)\" for \(issue.service), due in \(Int(due.rounded())) h")
        return try await within("the round for \"\(issue.title)\"") { try await robert.register(issue) }
    }

    /// `body`'s result, or ``Failure/timedOut(step:)`` after ``timeout`` of real time.
    private func within<T: Sendable>(_ step: String, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else { throw Failure.timedOut(step: step) }
            return value
        }
    }
}
