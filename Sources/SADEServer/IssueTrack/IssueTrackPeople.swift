import Foundation
import Logging
import SADEIssueTrack
import SADEMonitoring
import SADENotification

extension IssuePeople {
    /// The issue track's people reached as the monitoring system reaches anyone: through
    /// its outbox, to the account whose username (or staff id) is the employee's id — on
    /// their phone when it is subscribed to pushes, in the dashboard when it is open.
    ///
    /// - The employee chosen is asked *Can you take issue #7?* with *Take it* and *Can't*
    ///   (a warning, kept by push services only until the question's deadline); when the
    ///   deadline passes unanswered, a second notice replaces the question on the lock
    ///   screen (same topic): no answer in time, the round went on without them.
    /// - The reporter hears who took their issue, and whether it was solved.
    ///
    /// - Parameters:
    ///   - system: whose outbox sends the notices.
    ///   - deadline: how long the employee has to answer; `nil`: employees take issues by
    ///     rule, and only reporters are told.
    ///   - store: the company's store, for employees' names.
    public static func reached(through system: MonitoringSystem, deadline: Duration?, store: any CompanyStore) -> IssuePeople {
        let logger = Logger(label: "sade.issuetrack.people")
        return IssuePeople(deadline: deadline) { news in
            guard let notice = await notice(for: news, store: store) else { return }
            do {
                _ = try await system.outbox.send(notice)
            } catch {
                logger.error("an issue-track notice was not sent", metadata: ["title": "\(notice.title)", "error": "\(error)"])
            }
        }
    }

    /// The notice telling `news` to whom it concerns; `nil` when nobody is to be told.
    static func notice(for news: IssueNews, store: any CompanyStore) async -> Notice? {
        func name(_ id: String) async -> String { (try? await store.employee(id))?.name ?? id }
        func time(_ date: Date) -> String { date.formatted(date: .omitted, time: .shortened) }
        switch news {
        case .question(let question):
            guard let id = question.issue.id else { return nil }
            let issue = question.issue
            let reporter = if let reporter = issue.reporter { await name(reporter) } else { "A colleague" }
            // A warning: the phone wakes at normal urgency; kept by the push service no longer than the question is open.
            return Notice(
                id: question.id, recipients: [.user(question.employee)], severity: .warning, title: "Can you take issue #\(id)?",
                body: "\(issue.priority.rawValue.capitalized), \(issue.service): \(issue.title). From \(reporter); "
                    + "answer by \(time(question.deadline)), else it goes to a colleague.",
                createdAt: question.asked, deduplicationKey: IssueNoticeKey.question(id, to: question.employee), expiresAt: question.deadline)
        case .closed(let question, let decision):
            guard decision == .noAnswer, let id = question.issue.id else { return nil }
            return Notice(
                recipients: [.user(question.employee)], severity: .information, title: "Issue #\(id): no answer in time",
                body: "You did not answer by \(time(question.deadline)), so it went on without you: \(question.issue.title)",
                deduplicationKey: IssueNoticeKey.closed(id, to: question.employee))
        case .taken(let issue, let employee):
            guard let id = issue.id, let reporter = issue.reporter else { return nil }
            return Notice(
                recipients: [.user(reporter)], severity: .information, title: "\(await name(employee)) took your issue #\(id)",
                body: issue.title, deduplicationKey: IssueNoticeKey.taken(id))
        case .resolved(let issue, let resolution):
            guard let reporter = issue.reporter else { return nil }
            let outcome = resolution.solved ? "solved" : "not solved"
            return Notice(
                recipients: [.user(reporter)], severity: .information, title: "Issue #\(resolution.issue) \(outcome)",
                body: resolution.note.isEmpty ? issue.title : "\(issue.title): \(resolution.note)", deduplicationKey: IssueNoticeKey.result(resolution.issue))
        }
    }
}
