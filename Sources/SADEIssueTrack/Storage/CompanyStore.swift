import Foundation

/// The company's data (iMobile's `DAO`): the company, services, employees, issues, who
/// is out of the office, and how each issue's last round went. On SQLite
/// (``SQLiteCompanyStore``, one machine) or PostgreSQL (``PostgresCompanyStore``, shared
/// by several nodes); both pass one conformance suite.
///
/// Every call is one transaction.
public protocol CompanyStore: Sendable {
    /// Sets the company's name and description.
    func setCompany(name: String, description: String) async throws(IssueTrackError)

    /// Everything about the company: name, services (by name), employees (by id) and
    /// issues (by number).
    func company() async throws(IssueTrackError) -> Company

    /// Adds a service, or updates its description.
    func save(_ service: Service) async throws(IssueTrackError)

    /// Adds an employee, or replaces their data and services.
    ///
    /// - Throws: ``IssueTrackError/invalidEmployeeID(_:)``, ``IssueTrackError/unknownService(_:)``.
    func save(_ employee: Employee) async throws(IssueTrackError)

    /// The employee with this id, if any.
    func employee(_ id: String) async throws(IssueTrackError) -> Employee?

    /// Every employee offering `service`, by id (the e-mail fallback's recipients).
    func employees(offering service: String) async throws(IssueTrackError) -> [Employee]

    /// Stores a new issue, open; returns it with its number.
    ///
    /// - Throws: ``IssueTrackError/unknownService(_:)`` if its service is not registered.
    func register(_ issue: Issue) async throws(IssueTrackError) -> Issue

    /// The issue with this number, if any.
    func issue(_ id: Int64) async throws(IssueTrackError) -> Issue?

    /// The issues `employee` is working on (in progress, assigned to them), by deadline.
    func work(of employee: String) async throws(IssueTrackError) -> [Issue]

    /// Records that `employee` took issue `id`: in progress, assigned to them.
    ///
    /// - Throws: ``IssueTrackError/unknownIssue(_:)``.
    func assign(_ id: Int64, to employee: String) async throws(IssueTrackError)

    /// Records the result its assignee reported: solved or not, with their note.
    ///
    /// - Throws: ``IssueTrackError/unknownIssue(_:)``.
    func resolve(_ id: Int64, solved: Bool, note: String?) async throws(IssueTrackError)

    /// Records whether `employee` is connected to the company network; an employee
    /// never recorded counts as connected.
    ///
    /// - Throws: ``IssueTrackError/unknownEmployee(_:)``.
    func setConnected(_ employee: String, _ connected: Bool) async throws(IssueTrackError)

    /// The employees recorded as not connected (out of the office), by id.
    func disconnectedEmployees() async throws(IssueTrackError) -> Set<String>

    /// Records where the round handing issue `id` on stands.
    ///
    /// - Throws: ``IssueTrackError/unknownIssue(_:)``.
    func setRound(_ round: RoundState, of id: Int64) async throws(IssueTrackError)

    /// Where the round of each issue in `ids` (every issue when `nil`) stands, for those
    /// that had one.
    func rounds(of ids: [Int64]?) async throws(IssueTrackError) -> [Int64: RoundState]

    /// Records every round still running as interrupted (an office starting after
    /// another stopped or died: nothing runs them any more); returns their issues.
    func interruptRunningRounds() async throws(IssueTrackError) -> [Int64]
}

/// Where the round handing an issue on stands.
public enum RoundState: Hashable, Sendable, Codable {
    /// Colleagues are being asked.
    case running
    /// A colleague chosen by the rules is asked whether they take it, and may answer
    /// until the question's deadline (running still).
    case asking(IssueQuestion)
    /// The round is over.
    case finished(IssueRound)
}

extension CompanyStore {
    /// Where the round of issue `id` stands, if it had one.
    public func round(of id: Int64) async throws(IssueTrackError) -> RoundState? {
        try await rounds(of: [id])[id]
    }

    /// How a round running (or asking) is stored, for finding it: `state = running OR state LIKE asking`.
    static var askingPattern: String { #"{"asking":%"# }

    /// A running round's state as stored: the round itself, interrupted, once nothing runs it.
    static func interrupted(_ issue: Issue) -> RoundState {
        .finished(IssueRound(issue: issue))
    }
}
