import Foundation
import Hummingbird
import SADEIssueTrack
import SADEMonitoring

extension MonitoringServer {
    /// iMobile's issue track on the server's ``IssueTrackOffice``: staff (admins, doctors,
    /// nurses) read the company and its issues and register issues on behalf of an
    /// employee (`POST /issues` answers 202 at once; the round that finds who takes it
    /// runs on and shows in `GET /issues/{id}`); admins manage services and employees,
    /// say who is out of the office, and report an assignee's result.
    func addIssueTrackRoutes(to api: RouterGroup<MonitoringRequestContext>) {
        api.get("company") { _, context in
            let office = try issueTrackOffice(for: context)
            return CompanyView(try await office.company(), disconnected: try await office.disconnected())
        }

        api.post("company/services") { request, context in
            _ = try context.requireAdmin()
            let office = try issueTrackOffice(for: context)
            let service = try await request.decode(as: ServiceInput.self, context: context).service()
            try await office.save(service)
            return EditedResponse(status: .created, response: service)
        }

        api.put("company/employees/:id") { request, context in
            _ = try context.requireAdmin()
            let office = try issueTrackOffice(for: context)
            let id = try context.pathParameter("id")
            let employee = try await request.decode(as: EmployeeInput.self, context: context).employee(id: id)
            try await office.save(employee)
            return try await employeeView(id, in: office)
        }

        api.put("company/employees/:id/connection") { request, context in
            _ = try context.requireAdmin()
            let office = try issueTrackOffice(for: context)
            let id = try context.pathParameter("id")
            let input = try await request.decode(as: ConnectionInput.self, context: context)
            try await office.setConnected(id, input.connected)
            return try await employeeView(id, in: office)
        }

        api.get("issues") { _, context in
            let office = try issueTrackOffice(for: context)
            return try await office.issues().reversed().map { IssueView($0.issue, round: $0.round) }
        }

        api.post("issues") { request, context in
            let office = try issueTrackOffice(for: context)
            let input = try await request.decode(as: IssueInput.self, context: context)
            let issue = try input.issue(now: system.now())
            let stored: Issue
            do {
                stored = try await office.register(issue, reporter: input.reporter)
            } catch IssueTrackError.unknownEmployee(let reporter) {
                throw APIError.invalid("reporter: \(IssueTrackError.unknownEmployee(reporter))", code: "invalid-field")
            }
            // The issue as it is now, read with its round: the round may already be over,
            // and the issue it assigned must not be shown as still open beside it.
            let current = if let id = stored.id { try await office.issue(id) } else { nil as (issue: Issue, round: RoundState?)? }
            return EditedResponse(status: .accepted, response: IssueView(current?.issue ?? stored, round: current?.round))
        }

        api.get("issues/:id") { _, context in
            let office = try issueTrackOffice(for: context)
            let id = try issueNumber(context)
            guard let found = try await office.issue(id) else { throw APIError.notFound(IssueTrackError.unknownIssue(id).description) }
            return IssueView(found.issue, round: found.round)
        }

        api.post("issues/:id/answer") { request, context in
            let office = try issueTrackOffice(for: context)
            let id = try issueNumber(context)
            let input = try await request.decode(as: AnswerInput.self, context: context)
            guard let asked = try await office.issue(id) else { throw APIError.notFound(IssueTrackError.unknownIssue(id).description) }
            guard case .asking(let question) = asked.round else { throw APIError.conflict("nobody is being asked about issue #\(id) now") }
            try await answer(question, input.take ? .take : .decline, as: try context.requireCaller(), in: office, context: context)
            guard let found = try await office.issue(id) else { throw APIError.notFound(IssueTrackError.unknownIssue(id).description) }
            return IssueView(found.issue, round: found.round)
        }

        api.post("issues/:id/resolution") { request, context in
            _ = try context.requireAdmin()
            let office = try issueTrackOffice(for: context)
            let id = try issueNumber(context)
            let input = try await request.decode(as: ResolutionInput.self, context: context).checked()
            let issue = try await office.report(id, solved: input.solved, note: input.note)
            return IssueView(issue, round: try await office.round(of: id))
        }
    }

    /// Gives `account`'s answer to `question`: only staff, and of them the employee asked
    /// (the account whose username or staff id is the employee's id) or an admin
    /// answering for them.
    func answer(
        _ question: IssueQuestion, _ decision: EmployeeDecision, as account: UserAccount, in office: IssueTrackOffice,
        context: MonitoringRequestContext
    ) async throws {
        guard account.role == .admin || account.role.isCareWorker else { throw APIError.forbidden("the issue track is for staff") }
        let isAsked = account.username == question.employee || account.staffID == question.employee
        guard isAsked || account.role == .admin else { throw APIError.forbidden("only \(question.employee) or an admin answers that question") }
        context.auditNote.note(detail: "issue \(question.issue.label): \(decision == .take ? "take it" : "can't") for \(question.employee)")
        try await office.answer(question.id, decision)
    }

    /// The office, for a staff member (403 for patients and devices; 503 when the server
    /// runs without an issue track).
    func issueTrackOffice(for context: MonitoringRequestContext) throws -> IssueTrackOffice {
        let caller = try context.requireCaller()
        guard caller.role == .admin || caller.role.isCareWorker else { throw APIError.forbidden("the issue track is for staff") }
        guard let issueTrack else {
            throw APIError(.serviceUnavailable, code: "issue-track-off", message: "this server runs without the issue track")
        }
        return issueTrack
    }

    private func issueNumber(_ context: MonitoringRequestContext) throws -> Int64 {
        let text = try context.pathParameter("id")
        guard let id = Int64(text), id > 0 else { throw APIError.notFound("there is no issue \(text)") }
        return id
    }

    private func employeeView(_ id: String, in office: IssueTrackOffice) async throws -> EmployeeView {
        guard let employee = try await office.company().employees.first(where: { $0.id == id }) else {
            throw APIError.notFound(IssueTrackError.unknownEmployee(id).description)
        }
        return EmployeeView(employee, connected: !(try await office.disconnected().contains(id)))
    }
}

extension APIError {
    /// The answer for an issue-track error.
    init(_ error: IssueTrackError) {
        switch error {
        case .unknownEmployee, .unknownIssue: self = .notFound(error.description)
        case .unknownService, .invalidEmployeeID: self = .invalid(error.description, code: "invalid-field")
        case .notInProgress, .noOpenOffer, .notAReporter, .resultPending, .questionClosed: self = .conflict(error.description)
        case .resultNotRecorded: self = APIError(.serviceUnavailable, code: "result-not-recorded", message: error.description)
        case .unavailable: self = APIError(.serviceUnavailable, code: "unavailable", message: error.description)
        case .storage, .agentNotStarted:
            self = APIError(.internalServerError, code: "internal", message: "the issue track could not store or start that")
        }
    }
}
