import ArgumentParser
import SADEIssueTrack
import SADEMonitoring
import SADEServer

/// `sade serve`'s issue-track options: whether employees decide themselves (iMobile §IV)
/// or their agents take issues by rule, and how long they have to answer.
struct IssueTrackOptions: ParsableArguments {
    /// Who decides whether an employee takes an issue.
    enum Answers: String, ExpressibleByArgument, CaseIterable {
        /// The employee, asked on their phone and on the Issues page.
        case person
        /// Their agent, by the rules, unattended.
        case rule
    }

    @Option(help: """
        Who answers when an employee's agent is chosen to take an issue: person (the employee is asked on their phone \
        and the Issues page: Take it / Can't) or rule (their agent takes it, unattended).
        """)
    var issueAnswers: Answers = .person

    @Option(help: "Seconds an employee has to answer before the next colleague is asked (at most 1800: a push's buttons last 30 minutes).")
    var issueAnswerDeadline = 120

    func validate() throws {
        let longest = Int(PushActionTokens.lifetime)
        guard (5...longest).contains(issueAnswerDeadline) else { throw ValidationError("--issue-answer-deadline must be 5…\(longest) seconds") }
    }

    /// The people of the issue track whose data is in `store`, reached through `system`.
    func people(_ system: MonitoringSystem, store: any CompanyStore) -> IssuePeople {
        .reached(through: system, deadline: issueAnswers == .person ? .seconds(issueAnswerDeadline) : nil, store: store)
    }
}
