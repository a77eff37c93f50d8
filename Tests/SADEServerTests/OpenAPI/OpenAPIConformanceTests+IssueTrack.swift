import Foundation
import Testing
@testable import SADEServer

extension OpenAPIConformanceTests {
    /// The issue track: the company set up, an issue taken and solved, typical errors.
    static func issueTrack(_ log: inout AnswerLog, ward: AdminWard) async throws {
        let harness = log.harness
        try await log.call(.post, "/api/v1/company/services", token: ward.admin, json: ["name": "infrastructure", "description": "Networks"])
        try await log.call(.post, "/api/v1/company/services", token: ward.admin, json: ["name": ""])
        let employee = "/api/v1/company/employees/{id}"
        try await log.call(.put, employee, "/api/v1/company/employees/robert", token: ward.admin, json: EmployeeBody(id: "robert", services: []))
        try await log.call(.put, employee, "/api/v1/company/employees/tony", token: ward.admin, json: EmployeeBody(id: "tony", services: ["infrastructure"]))
        try await log.call(.put, employee, "/api/v1/company/employees/ana", token: ward.nurse1, json: EmployeeBody(id: "ana", services: []))
        let connection = "/api/v1/company/employees/{id}/connection"
        try await log.call(.put, connection, "/api/v1/company/employees/tony/connection", token: ward.admin, json: ["connected": true])
        try await log.call(.put, connection, "/api/v1/company/employees/ghost/connection", token: ward.admin, json: ["connected": true])
        try await log.call(.get, "/api/v1/company", token: ward.doctor1)
        try await log.call(.get, "/api/v1/company", token: ward.patient)

        let deadline = harness.system.now().addingTimeInterval(3600)
        let issue = IssueBody(title: "Core switch down", description: "", priority: "critical", deadline: deadline, service: "infrastructure", reporter: "robert")
        let registered = try await log.call(.post, "/api/v1/issues", token: ward.nurse1, json: issue)
        let id = try #require((registered.object?["id"] as? NSNumber)?.int64Value, "\(registered.text)")
        var unknown = issue
        unknown.reporter = "ghost"
        try await log.call(.post, "/api/v1/issues", token: ward.nurse1, json: unknown)
        try await log.call(.post, "/api/v1/issues", token: ward.nurse1, raw: #"{"title": 3}"#)
        _ = try await harness.server.issueTrack?.finishedRound(of: id)
        try await log.call(.get, "/api/v1/issues", token: ward.nurse1)
        try await log.call(.get, "/api/v1/issues/{id}", "/api/v1/issues/\(id)", token: ward.doctor1)
        try await log.call(.get, "/api/v1/issues/{id}", "/api/v1/issues/999", token: ward.doctor1)
        let answer = "/api/v1/issues/{id}/answer"
        try await log.call(.post, answer, "/api/v1/issues/\(id)/answer", token: ward.admin, json: ["take": true])
        try await log.call(.post, answer, "/api/v1/issues/\(id)/answer", token: ward.admin, raw: #"{"take": "yes"}"#)
        try await log.call(.post, answer, "/api/v1/issues/\(id)/answer", token: ward.patient, json: ["take": true])
        let resolution = "/api/v1/issues/{id}/resolution"
        try await log.call(.post, resolution, "/api/v1/issues/\(id)/resolution", token: ward.admin, json: ResolutionBody(solved: true, note: "replaced"))
        try await log.call(.post, resolution, "/api/v1/issues/\(id)/resolution", token: ward.admin, json: ResolutionBody(solved: true, note: "again"))
    }
}
