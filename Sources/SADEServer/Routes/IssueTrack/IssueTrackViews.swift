import Foundation
import Hummingbird
import SADEIssueTrack

/// The company as the API shows it: its services and employees, each with whether they
/// are connected (in the office).
struct CompanyView: ResponseEncodable {
    let name: String
    let description: String
    let services: [Service]
    let employees: [EmployeeView]

    init(_ company: Company, disconnected: Set<String>) {
        name = company.name
        description = company.description
        services = company.services
        employees = company.employees.map { EmployeeView($0, connected: !disconnected.contains($0.id)) }
    }
}

/// An employee, with whether their agent is connected to the company network.
struct EmployeeView: ResponseEncodable {
    let id: String
    let name: String
    let birthDate: Date
    let email: String
    let phone: String
    let services: [String]
    let connected: Bool

    init(_ employee: Employee, connected: Bool) {
        id = employee.id
        name = employee.name
        birthDate = employee.birthDate
        email = employee.email
        phone = employee.phone
        services = employee.services
        self.connected = connected
    }
}

/// An issue with the round that handed it on, when one ran since the server started.
struct IssueView: ResponseEncodable {
    let id: Int64
    let title: String
    let description: String
    let priority: IssuePriority
    let deadline: Date
    let service: String
    let status: IssueStatus
    let assignee: String?
    let reporter: String?
    let resolutionNote: String?
    let round: RoundView?

    init(_ issue: Issue, round: RoundState?) {
        id = issue.id ?? 0
        title = issue.title
        description = issue.description
        priority = issue.priority
        deadline = issue.deadline
        service = issue.service
        status = issue.status
        assignee = issue.assignee
        reporter = issue.reporter
        resolutionNote = issue.resolutionNote
        self.round = round.map(RoundView.init)
    }
}

/// Who was asked to take an issue, how each answered, and how the round ended.
struct RoundView: Encodable {
    /// An answer with its reason, in words.
    struct Answer: Encodable {
        let employee: String
        let reason: String
    }

    /// The question open to the employee the rules chose: take it?
    struct Question: Encodable {
        let id: UUID
        let employee: String
        let asked: Date
        let deadline: Date
    }

    /// `running`, `asking` (an employee is asked: ``question``) or `finished`.
    let state: String
    /// While asking.
    let question: Question?
    let asked: [String]
    let proposals: [Answer]
    let refusals: [Answer]
    /// Those chosen who then said *Can't* (`decline`) or did not answer (`no-answer`).
    let declined: [Answer]
    let unreachable: [String]
    /// `not-offered`, `taken`, `emailed`, `interrupted` or `failed`; absent while running.
    let outcome: String?
    /// Who took it.
    let takenBy: String?
    /// Whom the fallback e-mail went to.
    let emailedTo: [String]?
    /// `delivered`, `retrying`, `failed` or `no-recipients`.
    let emailDelivery: String?
    /// Why it was not offered, why it failed, or why the e-mail is not delivered.
    let reason: String?

    init(_ state: RoundState) {
        guard case .finished(let round) = state else {
            var question: Question?
            if case .asking(let asking) = state {
                question = Question(id: asking.id, employee: asking.employee, asked: asking.asked, deadline: asking.deadline)
            }
            (self.state, self.question, asked, proposals, refusals, declined, unreachable) = (
                question == nil ? "running" : "asking", question, [], [], [], [], []
            )
            (outcome, takenBy, emailedTo, emailDelivery, reason) = (nil, nil, nil, nil, nil)
            return
        }
        self.state = "finished"
        question = nil
        asked = round.asked
        declined = round.declined.sorted { $0.key < $1.key }.map { Answer(employee: $0.key, reason: $0.value.rawValue) }
        proposals = round.proposals.sorted { $0.key < $1.key }.map { Answer(employee: $0.key, reason: $0.value.description) }
        refusals = round.refusals.sorted { $0.key < $1.key }.map { Answer(employee: $0.key, reason: $0.value.description) }
        unreachable = round.unreachable
        var (takenBy, emailedTo, emailDelivery, reason): (String?, [String]?, String?, String?) = (nil, nil, nil, nil)
        switch round.result {
        case .notOffered(let why):
            outcome = "not-offered"
            reason = why
        case .taken(let employee):
            outcome = "taken"
            takenBy = employee
        case .emailed(let addresses, let delivery):
            outcome = "emailed"
            emailedTo = addresses
            switch delivery {
            case .delivered: emailDelivery = "delivered"
            case .retrying(let error): (emailDelivery, reason) = ("retrying", error)
            case .failed(let error): (emailDelivery, reason) = ("failed", error)
            case .noRecipients: emailDelivery = "no-recipients"
            }
        case .interrupted:
            outcome = "interrupted"
        case .failed(let why):
            outcome = "failed"
            reason = why
        }
        (self.takenBy, self.emailedTo, self.emailDelivery, self.reason) = (takenBy, emailedTo, emailDelivery, reason)
    }
}
