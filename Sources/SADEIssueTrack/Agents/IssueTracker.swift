import Foundation
import SADEACL
import SADECore
import SADENotification

/// What an ``IssueAgent`` needs to register issues and hand them on: the company's
/// store, the notification outbox for the e-mail fallback, the rules, the calendar and
/// the Contract Net's timing. Employees who only take issues need none of it.
public struct IssueTracker: Sendable {
    /// Where issues, employees and services are kept.
    public let store: any CompanyStore
    /// Sends the fallback e-mails; start it with ``NotificationOutbox/start()``.
    public let outbox: NotificationOutbox
    /// Which issues are offered, and how colleagues answer.
    public var rules: IssueTrackRules
    /// How long colleagues have to answer an offer.
    public var proposalDeadline: Duration
    /// How long the chosen colleague has to confirm that they took the issue.
    public var confirmationTimeout: Duration
    /// Picks the colleague to give the issue to among those who proposed;
    /// ``freeFirst`` by default.
    public var choose: @Sendable ([ACLMessage]) async -> [ACLMessage]
    let resolutions = ResolutionBoard()

    /// Creates a tracker.
    public init(
        store: any CompanyStore, outbox: NotificationOutbox, rules: IssueTrackRules = IssueTrackRules(),
        proposalDeadline: Duration = .seconds(10), confirmationTimeout: Duration = .seconds(10),
        choose: @escaping @Sendable ([ACLMessage]) async -> [ACLMessage] = IssueTracker.freeFirst
    ) {
        self.store = store
        self.outbox = outbox
        self.rules = rules
        self.proposalDeadline = proposalDeadline
        self.confirmationTimeout = confirmationTimeout
        self.choose = choose
    }

    /// The calendar: the outbox's clock, so that tests drive dates with a `ManualClock`.
    public var now: Date { outbox.clock.now }

    /// Chooses one proposal: a free colleague first, then one working only on medium or
    /// low issues (fewest first), then anyone; ties go to the lower agent name, so the
    /// choice never depends on which answer came first.
    public static let freeFirst: @Sendable ([ACLMessage]) async -> [ACLMessage] = { proposals in
        func rank(_ proposal: ACLMessage) -> (Int, Int, String) {
            let name = proposal.sender?.name ?? ""
            switch AcceptReason(content: proposal.content) {
            case .free: return (0, 0, name)
            case .onlyMediumOrLowWork(let count): return (1, count, name)
            case .noShortDeadlines(let count): return (2, count, name)
            case nil: return (3, 0, name)
            }
        }
        return proposals.min { rank($0) < rank($1) }.map { [$0] } ?? []
    }

    /// Waits for the result of issue `id` to be reported to the agent that registered it;
    /// returns at once if it already was. Waits as long as it takes: bound it if needed.
    public func resolution(of id: Int64) async -> Resolution {
        await resolutions.resolution(of: id, within: nil)!
    }

    /// The result of issue `id` once reported, or `nil` if it is not reported within
    /// `limit` (real time).
    public func resolution(of id: Int64, within limit: Duration) async -> Resolution? {
        await resolutions.resolution(of: id, within: limit)
    }
}

/// Resolutions received, and the callers waiting for one.
actor ResolutionBoard {
    private var received: [Int64: Resolution] = [:]
    private var waiters: [Int64: [UUID: CheckedContinuation<Resolution?, Never>]] = [:]

    func record(_ resolution: Resolution) {
        received[resolution.issue] = resolution
        for waiter in (waiters.removeValue(forKey: resolution.issue) ?? [:]).values { waiter.resume(returning: resolution) }
    }

    /// The resolution of `id`; waits for it, at most `limit` when one is given.
    func resolution(of id: Int64, within limit: Duration?) async -> Resolution? {
        if let known = received[id] { return known }
        let waiter = UUID()
        let timeout = limit.map { limit in
            Task {
                try? await Task.sleep(for: limit)
                self.giveUp(waiter, on: id)
            }
        }
        defer { timeout?.cancel() }
        return await withCheckedContinuation { waiters[id, default: [:]][waiter] = $0 }
    }

    private func giveUp(_ waiter: UUID, on id: Int64) {
        waiters[id]?.removeValue(forKey: waiter)?.resume(returning: nil)
    }
}
