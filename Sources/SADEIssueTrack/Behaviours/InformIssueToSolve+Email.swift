import Foundation
import SADENotification

extension InformIssueToSolve {
    /// The fallback: one e-mail, through the outbox, to everyone in the company who offers
    /// the issue's service (but the reporter), connected or not. Waits for the first
    /// outcome of the delivery: delivered, retrying later, or given up — told by this
    /// outbox's events, or after ``outcomeWait`` by the delivery as stored (another
    /// node's outbox, sharing the database, may have sent it).
    func emailEveryone(_ start: IssueRound, tracker: IssueTracker) async throws -> IssueRound {
        var round = start
        let reporter = issueAgent.employee
        let addresses = try await tracker.store.employees(offering: issue.service)
            .filter { $0.id != reporter.id && !$0.email.isEmpty }.map(\.email)
        guard !addresses.isEmpty, let id = issue.id else {
            round.result = .emailed(to: [], delivery: .noRecipients)
            return round
        }
        let why = round.asked.isEmpty
            ? "No colleague offering \(issue.service) is connected to the company network."
            : "None of the colleagues asked (\(round.asked.joined(separator: ", "))) could take it."
        let notice = Notice(
            recipients: addresses.map(Recipient.email), severity: issue.priority == .critical ? .alarm : .warning,
            title: "Issue \(issue.label) needs someone for \(issue.service)",
            body: """
                \(reporter.name) registered a \(issue.priority.rawValue) issue due \(issue.deadline.formatted(.iso8601)):

                \(issue.title)
                \(issue.description)

                \(why) If you can take it, please contact \(reporter.name) (\(reporter.email), \(reporter.phone)).
                """,
            subject: "issue-\(id)", createdAt: tracker.now, deduplicationKey: "issue-track:\(id)")
        let events = await tracker.outbox.events()
        let stored = try await tracker.outbox.send(notice)
        round.result = .emailed(to: addresses, delivery: try await firstOutcome(of: stored, notice: notice, events: events, tracker: tracker))
        return round
    }

    private func firstOutcome(
        of stored: Notice, notice: Notice, events: AsyncStream<OutboxEvent>, tracker: IssueTracker
    ) async throws -> IssueRound.EmailDelivery {
        if stored.id != notice.id {  // e-mailed before: tell how that went
            let states = try await tracker.outbox.deliveries(of: stored.id).map(\.state)
            return states.contains(.delivered) ? .delivered : .retrying(error: "sent before, not delivered yet")
        }
        if try await tracker.outbox.deliveries(of: stored.id).isEmpty {  // no channel took it: no outcome will come
            return .failed(error: "no channel sends e-mail: the outbox has no mail server configured")
        }
        let told = await withTaskGroup(of: IssueRound.EmailDelivery?.self) { group in
            group.addTask {
                for await event in events {
                    switch event {
                    case .delivered(stored.id, _): return .delivered
                    case .failed(stored.id, _, _, let error, _): return .retrying(error: error)
                    case .dead(stored.id, _, let error): return .failed(error: error)
                    default: continue
                    }
                }
                return Task.isCancelled ? nil : .retrying(error: "the outbox stopped before delivering it")
            }
            group.addTask {
                try? await tracker.outbox.clock.clock.sleep(for: Self.outcomeWait)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        if let told { return told }
        let states = try await tracker.outbox.deliveries(of: stored.id).map(\.state)
        if states.contains(.delivered) { return .delivered }
        if states.contains(.dead) { return .failed(error: "the outbox gave up on it") }
        return .retrying(error: "not delivered yet")
    }

    /// How long the round waits for this node's outbox to tell how the e-mail went.
    static let outcomeWait = Duration.seconds(30)
}
