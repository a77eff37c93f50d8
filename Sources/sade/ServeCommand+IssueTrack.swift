import Foundation
import SADECore
import SADEExamples
import SADEIssueTrack
import SADENotification

extension ServeCommand {
    /// The issue track served beside the monitoring: its agents on a platform of their
    /// own (`company`), its data and e-mail outbox in `DATA/issuetrack`; the fallback
    /// e-mails go through `--smtp` (without it they are kept, undelivered, and the round
    /// says so). With `--demo`, an empty company is seeded with iMobile's (six employees,
    /// Julia and Pedro out of the office).
    func openIssueTrack() throws -> IssueTrackOffice {
        let directory = (data as NSString).appendingPathComponent("issuetrack")
        let store = try CompanyStore(directory: directory)
        let channels: [any NotificationChannel] = mail.configuration().map { [EmailChannel($0)] } ?? []
        let outbox = try NotificationOutbox(directory: directory, channels: channels)
        if demo, try store.company().employees.isEmpty {
            try IssueTrackScenario.seed(store, now: outbox.clock.now)
            for employee in IssueTrackScenario.outOfOffice { try store.setConnected(employee, false) }
        }
        return IssueTrackOffice(store: store, outbox: outbox, platform: Environment(name: "company"))
    }
}
