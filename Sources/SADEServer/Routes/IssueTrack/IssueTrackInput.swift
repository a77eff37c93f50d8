import Foundation
import SADEIssueTrack

/// The body of `POST /issues`: a new issue and the employee registering it.
struct IssueInput: Decodable {
    var title: String
    var description: String
    var priority: IssuePriority
    var deadline: Date
    var service: String
    var reporter: String

    /// The issue, once every field is checked (400 naming the field otherwise); the
    /// deadline within a century of `now`.
    func issue(now: Date) throws -> Issue {
        guard abs(deadline.timeIntervalSince(now)) <= 100 * 365.25 * 86_400 else {
            throw APIError.invalid("deadline: must be within a hundred years of today", code: "invalid-field")
        }
        try TextField.check(title, "title", maxLength: 200)
        try TextField.check(description, "description", maxLength: 4000, mayBeEmpty: true)
        try TextField.check(service, "service", maxLength: 100)
        try TextField.check(reporter, "reporter", maxLength: 64)
        return Issue(title: title, description: description, priority: priority, deadline: deadline, service: service)
    }
}

/// The body of `PUT /company/employees/{id}`.
struct EmployeeInput: Decodable {
    var name: String
    var birthDate: Date
    var email: String
    var phone: String
    var services: [String]

    /// The employee with this id, once every field is checked.
    func employee(id: String) throws -> Employee {
        guard Employee.isValidID(id) else { throw APIError.invalid(IssueTrackError.invalidEmployeeID(id).description, code: "invalid-field") }
        try TextField.check(name, "name", maxLength: 200)
        try TextField.check(email, "email", maxLength: 254, mayBeEmpty: true)
        guard email.isEmpty || (email.contains("@") && !email.contains(where: { $0 == " " || $0 == "<" || $0 == ">" })) else {
            throw APIError.invalid("email: not an e-mail address", code: "invalid-field")
        }
        try TextField.check(phone, "phone", maxLength: 40, mayBeEmpty: true)
        guard birthDate.timeIntervalSince1970 >= -5_000_000_000, birthDate <= Date() else {
            throw APIError.invalid("birthDate: must be a date in the past", code: "invalid-field")
        }
        guard services.count <= 50 else { throw APIError.invalid("services: at most 50", code: "invalid-field") }
        return Employee(id: id, name: name, birthDate: birthDate, email: email, phone: phone, services: services)
    }
}

/// The body of `POST /company/services`.
struct ServiceInput: Decodable {
    var name: String
    var description: String

    /// The service, once every field is checked.
    func service() throws -> Service {
        try TextField.check(name, "name", maxLength: 100)
        try TextField.check(description, "description", maxLength: 1000, mayBeEmpty: true)
        return Service(name: name, description: description)
    }
}

/// The body of `PUT /company/employees/{id}/connection`.
struct ConnectionInput: Decodable {
    var connected: Bool
}

/// The body of `POST /issues/{id}/answer`: the asked employee's answer, `{"take": true}`
/// (*Take it*) or `false` (*Can't*).
struct AnswerInput: Decodable {
    var take: Bool
}

/// The body of `POST /issues/{id}/resolution`: what the assignee reports.
struct ResolutionInput: Decodable {
    var solved: Bool
    var note: String

    func checked() throws -> ResolutionInput {
        try TextField.check(note, "note", maxLength: 4000, mayBeEmpty: true)
        return self
    }
}

/// Checks of free-text fields: trimmed non-empty when required, bounded, no control characters.
enum TextField {
    static func check(_ text: String, _ field: String, maxLength: Int, mayBeEmpty: Bool = false) throws {
        if !mayBeEmpty, text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            throw APIError.invalid("\(field): must not be empty", code: "invalid-field")
        }
        guard text.count <= maxLength else { throw APIError.invalid("\(field): at most \(maxLength) characters", code: "invalid-field") }
        guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && $0 != "\n" && $0 != "\t" }) else {
            throw APIError.invalid("\(field): control characters are not allowed", code: "invalid-field")
        }
    }
}
