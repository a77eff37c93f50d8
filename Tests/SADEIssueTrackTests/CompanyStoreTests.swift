import Foundation
import SADEExamples
import SADEIssueTrack
import Testing

@Suite("The company's data on SQLite")
struct CompanyStoreTests {
    @Test("company, services, employees and issues survive closing and reopening the database")
    func persistsAcrossReopening() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sade-issuetrack-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        do {
            let store = try CompanyStore(directory: directory)
            try IssueTrackScenario.seed(store, now: now)
        }
        let reopened = try CompanyStore(directory: directory)
        let company = try reopened.company()
        #expect(company.name == "Acme Software")
        #expect(company.services.map(\.name) == ["back-end", "front-end", "infrastructure", "prototyping", "user-experience"])
        #expect(company.employees.map(\.id) == ["julia", "lucas", "maria", "pedro", "robert", "tony"])
        let tony = try #require(company.employees.first { $0.id == "tony" })
        var seeded = try #require(IssueTrackScenario.employees.first { $0.id == "tony" })
        seeded.services.sort()  // the store gives services by name
        #expect(tony == seeded)
        #expect(company.employees(offering: "infrastructure").map(\.id) == ["maria", "pedro", "tony"])
        #expect(try reopened.employees(offering: "prototyping").map(\.id) == ["julia", "pedro"])
        #expect(company.issues.map(\.title) == ["Database server disk full", "Login page layout broken on tablets"])
        let busy = try #require(try reopened.work(of: "maria").first)
        #expect(busy.priority == .critical)
        #expect(busy.status == .inProgress)
        #expect(abs(busy.deadline.timeIntervalSince(now.addingTimeInterval(24 * 3600))) < 0.001)
    }

    @Test("issues are numbered, assigned and resolved; unknown services and bad ids are refused with a reason")
    func issueLifecycleAndErrors() throws {
        let store = try CompanyStore(directory: nil)
        try store.save(Service(name: "infrastructure", description: "networks"))
        try store.save(Employee(id: "tony", name: "Tony", birthDate: .now, email: "t@x.example", phone: "1", services: ["infrastructure"]))
        let issue = try store.register(Issue(title: "a", description: "b", priority: .high, deadline: .now, service: "infrastructure"))
        #expect(issue.id == 1)
        #expect(try store.register(issue).id == 2)
        try store.assign(1, to: "tony")
        #expect(try store.work(of: "tony").map(\.id) == [1])
        try store.resolve(1, solved: true, note: "done")
        #expect(try store.work(of: "tony").isEmpty)
        #expect(try store.issue(1)?.status == .solved)

        #expect(throws: IssueTrackError.unknownService("cooking")) {
            try store.register(Issue(title: "a", description: "b", priority: .low, deadline: .now, service: "cooking"))
        }
        #expect(throws: IssueTrackError.unknownService("cooking")) {
            try store.save(Employee(id: "ana", name: "Ana", birthDate: .now, email: "a@x.example", phone: "2", services: ["cooking"]))
        }
        #expect(throws: IssueTrackError.invalidEmployeeID("ana maria")) {
            try store.save(Employee(id: "ana maria", name: "Ana", birthDate: .now, email: "a@x.example", phone: "2", services: []))
        }
        #expect(throws: IssueTrackError.unknownIssue(99)) { try store.assign(99, to: "tony") }
        #expect(try store.employee("nobody") == nil)
    }
}
