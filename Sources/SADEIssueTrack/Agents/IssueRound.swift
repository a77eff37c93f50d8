/// What became of an issue its reporter's agent tried to hand on (InformIssueToSolve).
public struct IssueRound: Hashable, Sendable, Codable {
    /// How the round ended.
    public enum Result: Hashable, Sendable, Codable {
        /// Not offered: medium or low, or high with a far deadline.
        case notOffered(reason: String)
        /// This employee took it.
        case taken(by: String)
        /// Nobody took it; everyone offering its service was e-mailed.
        case emailed(to: [String], delivery: EmailDelivery)
        /// The reporter's agent stopped or was suspended before the round ended.
        case interrupted
        /// Something else went wrong, e.g. the store could not be written.
        case failed(reason: String)
    }

    /// What became of the fallback e-mail.
    public enum EmailDelivery: Hashable, Sendable, Codable {
        /// The mail server took it.
        case delivered
        /// It failed; the outbox retries it later.
        case retrying(error: String)
        /// The outbox gave up on it.
        case failed(error: String)
        /// Nobody offering the service has an address; nothing was sent.
        case noRecipients
    }

    /// The issue, as registered.
    public let issue: Issue
    /// The employees whose agents were offered the issue, by id.
    public internal(set) var asked: [String] = []
    /// Employees who proposed to take it, with their reason.
    public internal(set) var proposals: [String: AcceptReason] = [:]
    /// Employees who refused, with the reason their refusal carried.
    public internal(set) var refusals: [String: RefusalReason] = [:]
    /// Employees chosen who then decided not to take it (*Can't*, or no answer in time).
    public internal(set) var declined: [String: EmployeeDecision] = [:]
    /// Employees whose agents could not be reached or did not answer in time: not
    /// connected, as far as the reporter can tell.
    public internal(set) var unreachable: [String] = []
    /// How the round ended.
    public internal(set) var result: Result = .interrupted

    init(issue: Issue) {
        self.issue = issue
    }

    private enum CodingKeys: String, CodingKey { case issue, asked, proposals, refusals, declined, unreachable, result }

    /// Reads a round as stored; one stored before employees were asked has no `declined`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        issue = try container.decode(Issue.self, forKey: .issue)
        asked = try container.decode([String].self, forKey: .asked)
        proposals = try container.decode([String: AcceptReason].self, forKey: .proposals)
        refusals = try container.decode([String: RefusalReason].self, forKey: .refusals)
        declined = try container.decodeIfPresent([String: EmployeeDecision].self, forKey: .declined) ?? [:]
        unreachable = try container.decode([String].self, forKey: .unreachable)
        result = try container.decode(Result.self, forKey: .result)
    }

    /// The employee who took the issue, if any.
    public var takenBy: String? {
        if case .taken(let employee) = result { employee } else { nil }
    }
}
