import Foundation

/// An employee who uses the app (iMobile's `User`): what they told the app the first
/// time, and the services they offer. Each employee is represented by an ``IssueAgent``.
public struct Employee: Hashable, Sendable, Codable, Identifiable {
    /// A short unique id, also the name of the employee's agent, e.g. `tony`: letters,
    /// digits, `-` and `_`; not `ams` or `df`.
    public var id: String
    /// The employee's name, e.g. `Tony Almeida`.
    public var name: String
    /// Date of birth.
    public var birthDate: Date
    /// Where the e-mail fallback reaches them.
    public var email: String
    /// Mobile phone number.
    public var phone: String
    /// The names of the ``Service``s they offer (sorted by name when read from the store).
    public var services: [String]

    /// Creates an employee.
    public init(id: String, name: String, birthDate: Date, email: String, phone: String, services: [String]) {
        self.id = id
        self.name = name
        self.birthDate = birthDate
        self.email = email
        self.phone = phone
        self.services = services
    }

    /// The first name, for stories: `Tony`.
    public var firstName: String { name.split(separator: " ").first.map(String.init) ?? name }

    /// Whether `id` can name an employee and their agent: not `ams` or `df`, the names of
    /// a platform's own agents.
    public static func isValidID(_ id: String) -> Bool {
        !["ams", "df"].contains(id) && !id.isEmpty && id.count <= 64 && id.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_") }
    }
}
