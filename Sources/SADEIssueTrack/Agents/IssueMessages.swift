import Foundation
import SADEACL

/// The issue track's ontology and the contents of its messages that are not answers
/// to an offer (those are ``AcceptReason`` and ``RefusalReason``).
public enum IssueMessages {
    /// The ontology of every issue-track message.
    public static let ontology = "issue-track"

    /// The call for proposals offering `issue`: the issue as JSON.
    static func offer(_ issue: Issue) -> ACLMessage {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.dateEncodingStrategy = .iso8601
        let json = (try? encoder.encode(issue)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return ACLMessage(.cfp, content: json, language: "json", ontology: ontology)
    }

    /// The issue in a call for proposals; `nil` if it holds none.
    static func issue(in cfp: ACLMessage) -> Issue? {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return cfp.content.flatMap { try? decoder.decode(Issue.self, from: Data($0.utf8)) }
    }

    /// `(taken :issue 12 :by tony)`: the contractor's confirmation that it took the issue.
    static func taken(_ id: Int64, by employee: String) -> String {
        ACLExpression.list([.word("taken"), .word(":issue"), .number("\(id)"), .word(":by"), .atom(employee)]).description
    }

    /// Whether `content` confirms that issue `id` was taken.
    static func confirmsTaken(_ content: String?, issue id: Int64) -> Bool {
        guard let content, let expression = try? ACLExpression(parsing: content), expression.head == "taken" else { return false }
        return expression.parameter("issue")?.text == "\(id)"
    }
}

/// What the employee who took an issue reports at the end (NotifyResultResolution):
/// `(resolution :issue 12 :solved true :note "replaced the switch")`.
public struct Resolution: Hashable, Sendable {
    /// The issue's number.
    public var issue: Int64
    /// The id of the employee who worked on it.
    public var employee: String
    /// Whether it was solved.
    public var solved: Bool
    /// What the employee added.
    public var note: String

    /// Creates a resolution.
    public init(issue: Int64, employee: String, solved: Bool, note: String) {
        self.issue = issue
        self.employee = employee
        self.solved = solved
        self.note = note
    }

    /// The ACL content.
    public var content: String {
        ACLExpression.list([
            .word("resolution"), .word(":issue"), .number("\(issue)"), .word(":by"), .atom(employee),
            .word(":solved"), .word(solved ? "true" : "false"), .word(":note"), .string(note),
        ]).description
    }

    /// Reads an `inform` content; `nil` if it is not a resolution.
    public init?(content: String?) {
        guard let content, let expression = try? ACLExpression(parsing: content), expression.head == "resolution",
            let issue = expression.parameter("issue")?.text.flatMap({ Int64($0) }),
            let employee = expression.parameter("by")?.text,
            let solved = expression.parameter("solved")?.text, ["true", "false"].contains(solved)
        else { return nil }
        self.init(issue: issue, employee: employee, solved: solved == "true", note: expression.parameter("note")?.text ?? "")
    }
}
