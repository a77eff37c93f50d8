import Foundation
import Logging
import SADECore
import SADEExamples
import SADEIssueTrack
import SADEMonitoring
import SADENotification
import SADEPostgres

extension ServeCommand {
    /// The issue track served beside the monitoring, its agents on a platform of their
    /// own (`company`); its people are asked and told through the monitoring's outbox
    /// (their phones, the dashboard) unless `--issue-answers rule`; the fallback e-mails go through `--smtp` (without it they are
    /// kept, undelivered, and the round says so). With `--demo`, an empty company is
    /// seeded with iMobile's (six employees, Julia and Pedro out of the office).
    ///
    /// Alone, its data and e-mail outbox are in `DATA/issuetrack` and its office opens
    /// with the server. On PostgreSQL its data and its e-mails are in the database (an
    /// outbox of its own sending e-mail only, on the shared outbox tables), and its office
    /// opens on the node running the singletons only (moving when that node dies); the other nodes
    /// send it what needs its agents (``OfficeCalls``).
    func openIssueTrack(_ system: MonitoringSystem, pool: PostgresPool?) async throws -> (office: IssueTrackOffice, calls: OfficeCalls?) {
        let platform = Environment(name: "company")
        let channels: [any NotificationChannel] = mail.configuration().map { [EmailChannel($0)] } ?? []
        guard let pool else {
            let directory = (data as NSString).appendingPathComponent("issuetrack")
            let store = try SQLiteCompanyStore(directory: directory)
            let outbox = try NotificationOutbox(directory: directory, channels: channels)
            if demo { try await Self.seedIssueTrack(store, now: outbox.clock.now) }
            return (IssueTrackOffice(store: store, outbox: outbox, platform: platform, people: issueTrackOptions.people(system, store: store)), nil)
        }
        let store = try await PostgresCompanyStore(pool)
        if demo {
            try await system.oneNodeAtATime("sade demo issue track") { try await Self.seedIssueTrack(store, now: system.now()) }
        }
        let outbox = try await NotificationOutbox(postgres: pool, channels: channels)
        let office = IssueTrackOffice(store: store, outbox: outbox, platform: platform, people: issueTrackOptions.people(system, store: store))
        let calls = try await OfficeCalls(
            pool: pool, office: office, node: system.node, logger: Logger(label: "sade.issuetrack.calls"), answering: { system.runsSingletons })
        system.runAsSingleton("the issue track's office", start: { try await office.start() }, stop: { await office.close() })
        return (office, calls)
    }

    /// Seeds an empty company with iMobile's.
    private static func seedIssueTrack(_ store: any CompanyStore, now: Date) async throws {
        guard try await store.company().employees.isEmpty else { return }
        try await IssueTrackScenario.seed(store, now: now)
        for employee in IssueTrackScenario.outOfOffice { try await store.setConnected(employee, false) }
    }
}
