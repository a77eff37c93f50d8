import Foundation
import SADEExamples
import SADEIssueTrack
import SADETestTiming
import Testing

@Suite("The company's data, on SQLite and on PostgreSQL", .timeLimit(.minutes(3)), .timed)
struct CompanyStoreTests {
    @Test("company, services, employees and issues survive closing and reopening the store", arguments: CompanyBackend.allCases)
    func persistsAcrossReopening(_ backend: CompanyBackend) async throws {
        let place = try await backend.place()
        defer { backend.remove(place) }
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        try await IssueTrackScenario.seed(try await backend.store(at: place), now: now)
        let reopened = try await backend.store(at: place)
        let company = try await reopened.company()
        #expect(company.name == "Acme Software")
        #expect(company.services.map(\.name) == ["back-end", "front-end", "infrastructure", "prototyping", "user-experience"])
        #expect(company.employees.map(\.id) == ["julia", "lucas", "maria", "pedro", "robert", "tony"])
        let tony = try #require(company.employees.first { $0.id == "tony" })
        var seeded = try #require(IssueTrackScenario.employees.first { $0.id == "tony" })
        seeded.services.sort()  // the store gives services by name
        #expect(tony.services == seeded.services && tony.email == seeded.email && tony.phone == seeded.phone)
        #expect(abs(tony.birthDate.timeIntervalSince(seeded.birthDate)) < 0.001)
        #expect(company.employees(offering: "infrastructure").map(\.id) == ["maria", "pedro", "tony"])
        #expect(try await reopened.employees(offering: "prototyping").map(\.id) == ["julia", "pedro"])
        #expect(company.issues.map(\.title) == ["Database server disk full", "Login page layout broken on tablets"])
        let busy = try #require(try await reopened.work(of: "maria").first)
        #expect(busy.priority == .critical)
        #expect(busy.status == .inProgress)
        #expect(busy.reporter == "robert")
        #expect(abs(busy.deadline.timeIntervalSince(now.addingTimeInterval(24 * 3600))) < 0.001)
    }

    @Test("issues are numbered, assigned and resolved; unknown services, issues and bad ids are refused with a reason", arguments: CompanyBackend.allCases)
    func issueLifecycleAndErrors(_ backend: CompanyBackend) async throws {
        let store = try await backend.store()
        try await store.save(Service(name: "infrastructure", description: "networks"))
        try await store.save(Service(name: "infrastructure", description: "networks and servers"))  // updated, not doubled
        #expect(try await store.company().services == [Service(name: "infrastructure", description: "networks and servers")])
        try await store.save(Employee(id: "tony", name: "Tony", birthDate: .now, email: "t@x.example", phone: "1", services: ["infrastructure"]))
        let issue = try await store.register(Issue(title: "a", description: "b", priority: .high, deadline: .now, service: "infrastructure"))
        #expect(issue.id == 1)
        #expect(try await store.register(issue).id == 2)
        try await store.assign(1, to: "tony")
        #expect(try await store.work(of: "tony").map(\.id) == [1])
        try await store.resolve(1, solved: true, note: "done")
        #expect(try await store.work(of: "tony").isEmpty)
        #expect(try await store.issue(1)?.status == .solved)
        #expect(try await store.issue(1)?.resolutionNote == "done")
        try await store.resolve(2, solved: false, note: nil)
        #expect(try await store.issue(2)?.status == .unsolved)

        await #expect(throws: IssueTrackError.unknownService("cooking")) {
            try await store.register(Issue(title: "a", description: "b", priority: .low, deadline: .now, service: "cooking"))
        }
        await #expect(throws: IssueTrackError.unknownService("cooking")) {
            try await store.save(Employee(id: "ana", name: "Ana", birthDate: .now, email: "a@x.example", phone: "2", services: ["cooking"]))
        }
        #expect(try await store.employee("ana") == nil)  // the refused save left nothing behind
        await #expect(throws: IssueTrackError.invalidEmployeeID("ana maria")) {
            try await store.save(Employee(id: "ana maria", name: "Ana", birthDate: .now, email: "a@x.example", phone: "2", services: []))
        }
        await #expect(throws: IssueTrackError.unknownIssue(99)) { try await store.assign(99, to: "tony") }
        await #expect(throws: IssueTrackError.unknownIssue(99)) { try await store.resolve(99, solved: true, note: nil) }
        #expect(try await store.employee("nobody") == nil)
        #expect(try await store.issue(99) == nil)
    }

    @Test("an employee's services are replaced by a save; presence is kept per employee", arguments: CompanyBackend.allCases)
    func servicesAndPresence(_ backend: CompanyBackend) async throws {
        let store = try await backend.store()
        try await IssueTrackScenario.seed(store, now: .now)
        var tony = try #require(try await store.employee("tony"))
        tony.services = ["front-end", "back-end", "front-end"]
        try await store.save(tony)
        #expect(try await store.employee("tony")?.services == ["back-end", "front-end"])
        #expect(!(try await store.employees(offering: "infrastructure").map(\.id).contains("tony")))

        #expect(try await store.disconnectedEmployees().isEmpty)
        try await store.setConnected("julia", false)
        try await store.setConnected("pedro", false)
        try await store.setConnected("pedro", true)
        #expect(try await store.disconnectedEmployees() == ["julia"])
        await #expect(throws: IssueTrackError.unknownEmployee("nobody")) { try await store.setConnected("nobody", false) }
    }

    @Test("a round's state is kept per issue; rounds left running are recorded as interrupted", arguments: CompanyBackend.allCases)
    func rounds(_ backend: CompanyBackend) async throws {
        let place = try await backend.place()
        defer { backend.remove(place) }
        let store = try await backend.store(at: place)
        let now = Date(timeIntervalSince1970: 1_795_000_000)  // whole seconds: SQLite keeps dates to the millisecond
        try await IssueTrackScenario.seed(store, now: now)
        let running = try await store.register(IssueTrackScenario.outage(now: now))
        let other = try await store.register(IssueTrackScenario.outage(now: now))
        let runningID = try #require(running.id), otherID = try #require(other.id)
        #expect(try await store.round(of: runningID) == nil)
        try await store.setRound(.running, of: runningID)
        // A round asking an employee is running too; its question comes back whole.
        let question = IssueQuestion(issue: other, employee: "tony", asked: now, deadline: now.addingTimeInterval(120))
        try await store.setRound(.asking(question), of: otherID)
        #expect(try await store.round(of: otherID) == .asking(question))
        let finished = try await store.interruptRunningRounds().sorted()
        #expect(finished == [runningID, otherID])

        // A finished round comes back whole, on another store on the same place (a restart, another node).
        try await store.setRound(.running, of: runningID)
        guard case .finished(var round) = try await store.round(of: otherID) else {
            Testing.Issue.record("the interrupted round is not finished")
            return
        }
        #expect(round.result == .interrupted && round.issue == other)
        let reopened = try await backend.store(at: place)
        #expect(try await reopened.rounds(of: nil) == [runningID: .running, otherID: .finished(round)])
        #expect(try await reopened.rounds(of: [otherID, 99]) == [otherID: .finished(round)])
        #expect(try await reopened.interruptRunningRounds() == [runningID])
        #expect(try await reopened.interruptRunningRounds().isEmpty)
        round = try #require(try await reopened.round(of: runningID).flatMap { if case .finished(let round) = $0 { round } else { nil } })
        #expect(round.result == .interrupted && round.issue.id == runningID)
        await #expect(throws: IssueTrackError.unknownIssue(99)) { try await reopened.setRound(.running, of: 99) }
    }
}
