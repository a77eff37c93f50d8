import Foundation
import SADEACL
import SADECore
import SADEExamples
import SADEIssueTrack
import SADENotification
import Synchronization
import Testing

/// The scenario's company on one platform with a manual clock: the store seeded with
/// IssueTrackScenario, an outbox whose e-mail channel is `mail`, and helpers to start
/// Robert (who registers issues) and colleagues.
struct Office {
    let clock = ManualClock()
    let platform: Environment
    let store: CompanyStore
    let outbox: NotificationOutbox
    let tracker: IssueTracker
    let events = EventLog()
    /// 2026-11-18T…: "today" at the clock's time zero.
    static let origin = Date(timeIntervalSince1970: 1_795_000_000)

    init(mail: any NotificationChannel = RecordingMailChannel(), choose: (@Sendable ([ACLMessage]) async -> [ACLMessage])? = nil) async throws {
        platform = Environment(name: "company", clock: clock)
        store = try SQLiteCompanyStore(directory: nil)
        try await IssueTrackScenario.seed(store, now: Self.origin)
        outbox = try NotificationOutbox(directory: nil, channels: [mail], clock: OutboxClock(clock: platform.clock, origin: Self.origin))
        await outbox.start()
        var tracker = IssueTracker(store: store, outbox: outbox)
        if let choose { tracker.choose = choose }
        self.tracker = tracker
    }

    var directory: AgentIdentifier { platform.dfIdentifier }

    /// Robert's agent, started, with the tracker; its events go to ``events``.
    func reporter() async throws -> IssueAgent {
        let agent = IssueAgent(
            employee: try #require(try await store.employee("robert")), environment: platform, directory: directory, calendar: outbox.clock,
            tracker: tracker) { [events] event in events.append(event) }
        try await agent.start()
        return agent
    }

    /// A colleague's agent, started, with their work from the store.
    func colleague(_ id: String, connected: Bool = true) async throws -> IssueAgent {
        let agent = IssueAgent(
            employee: try #require(try await store.employee(id)), environment: platform, directory: directory, calendar: outbox.clock,
            workload: try await store.work(of: id)) { [events] event in events.append(event) }
        try await agent.start()
        if !connected { await agent.setConnected(false) }
        return agent
    }

    /// A high or critical issue for `service` due `hours` from time zero.
    static func issue(_ priority: IssuePriority, dueInHours hours: Double, service: String = "infrastructure", title: String = "Core switch down") -> Issue {
        Issue(title: title, description: "nobody can work", priority: priority, deadline: origin.addingTimeInterval(hours * 3600), service: service)
    }
}

/// Every event the agents told, in order.
final class EventLog: Sendable {
    private let events = Mutex<[IssueTrackEvent]>([])
    func append(_ event: IssueTrackEvent) { events.withLock { $0.append(event) } }
    var all: [IssueTrackEvent] { events.withLock { $0 } }

    /// The answers colleagues gave (their own `answered` events).
    var answers: [IssueAnswer] {
        all.compactMap { if case .answered(_, let answer) = $0 { answer } else { nil } }
    }
}

/// An e-mail channel that keeps what it is given.
final class RecordingMailChannel: NotificationChannel {
    let name = "email"
    private let notices = Mutex<[Notice]>([])
    func accepts(_ notification: Notice) -> Bool { !notification.emailAddresses.isEmpty }
    func deliver(_ notification: Notice) async throws { notices.withLock { $0.append(notification) } }
    var delivered: [Notice] { notices.withLock { $0 } }
}

/// The issue track's issue; Swift Testing's `Issue` is written `Testing.Issue` here.
typealias Issue = SADEIssueTrack.Issue
