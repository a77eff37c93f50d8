import Foundation
import SADECore
import SADEExamples
import SADEIssueTrack
import SADENotification
import SADETestTiming
import Testing

/// The office that runs the issue track inside `sade serve`: every employee's agent on
/// one platform, rounds in the background, presence kept across restarts.
@Suite("IssueTrackOffice: the issue track as a service", .timeLimit(.minutes(3)), .timed)
struct IssueTrackOfficeTests {
    /// An office on a manual clock over the scenario's company in `directory` (a file
    /// store) or in memory, Julia and Pedro out of the office.
    static func office(directory: String? = nil, mail: [any NotificationChannel] = [RecordingMailChannel()]) async throws -> IssueTrackOffice {
        let platform = Environment(name: "company", clock: ManualClock())
        let store = try SQLiteCompanyStore(directory: directory)
        if try await store.company().employees.isEmpty {
            try await IssueTrackScenario.seed(store, now: Office.origin)
            for employee in IssueTrackScenario.outOfOffice { try await store.setConnected(employee, false) }
        }
        let outbox = try NotificationOutbox(directory: directory, channels: mail, clock: OutboxClock(clock: platform.clock, origin: Office.origin))
        return IssueTrackOffice(store: store, outbox: outbox, platform: platform)
    }

    /// The finished round of a registered issue.
    static func round(of issue: Issue, in office: IssueTrackOffice) async throws -> IssueRound {
        let id = try #require(issue.id)
        return try #require(await office.finishedRound(of: id))
    }

    @Test("every employee's agent publishes its services; a critical issue goes to Tony, the others refuse with their reasons")
    func criticalIssueTaken() async throws {
        let office = try await Self.office()
        try await office.start()
        let services = office.platform.directory.search(ServiceTemplate(type: "infrastructure")).map { String($0.agent.localName) }
        #expect(services.sorted() == ["maria", "pedro", "tony"])

        let stored = try await office.register(Office.issue(.critical, dueInHours: 20), reporter: "robert")
        let id = try #require(stored.id)
        #expect(stored.reporter == "robert" && stored.status == .open)
        let round = try #require(await office.finishedRound(of: id))
        #expect(round.result == .taken(by: "tony"))
        #expect(round.proposals == ["tony": .free])
        #expect(round.refusals["pedro"] == .notConnected)
        if case .busyWithUrgentIssue(let busy, .critical, _) = round.refusals["maria"] { #expect(busy == 1) } else {
            Testing.Issue.record("maria should refuse as busy with issue #1: \(round.refusals)")
        }
        #expect(try await office.issue(id)?.issue.assignee == "tony")
        #expect(try await office.round(of: id) == .finished(round))
        await office.shutdown()
    }

    @Test("a medium issue is stored and not offered")
    func mediumNotOffered() async throws {
        let office = try await Self.office()
        try await office.start()
        let stored = try await office.register(Office.issue(.medium, dueInHours: 20), reporter: "robert")
        let round = try await Self.round(of: stored, in: office)
        guard case .notOffered = round.result else {
            Testing.Issue.record("expected not offered, got \(round.result)")
            return
        }
        #expect(round.asked.isEmpty)
        await office.shutdown()
    }

    @Test("without a channel that sends e-mail, the fallback ends the round as failed instead of waiting forever")
    func fallbackWithoutMailChannel() async throws {
        let office = try await Self.office(mail: [])
        try await office.start()
        let stored = try await office.register(Office.issue(.high, dueInHours: 30, service: "prototyping"), reporter: "robert")
        let round = try await Self.round(of: stored, in: office)
        guard case .emailed(let addresses, .failed(let error)) = round.result else {
            Testing.Issue.record("expected a failed e-mail, got \(round.result)")
            return
        }
        #expect(addresses == ["julia@acme.example", "pedro@acme.example"])
        #expect(error.contains("no mail server"))
        await office.shutdown()
    }

    @Test("bringing Julia back to the office: she takes the prototyping issue nobody could")
    func presenceChangesTheRound() async throws {
        let mail = RecordingMailChannel()
        let office = try await Self.office(mail: [mail])
        try await office.start()
        let first = try await office.register(Office.issue(.high, dueInHours: 30, service: "prototyping"), reporter: "robert")
        let emailed = try await Self.round(of: first, in: office)
        #expect(emailed.result == .emailed(to: ["julia@acme.example", "pedro@acme.example"], delivery: .delivered))
        #expect(mail.delivered.count == 1)

        try await office.setConnected("julia", true)
        let second = try await office.register(Office.issue(.high, dueInHours: 30, service: "prototyping", title: "Again"), reporter: "robert")
        let taken = try await Self.round(of: second, in: office)
        #expect(taken.result == .taken(by: "julia"))
        await #expect(throws: IssueTrackError.unknownEmployee("nobody")) { try await office.setConnected("nobody", true) }
        await office.shutdown()
    }

    @Test("the assignee's result reaches the reporter's agent and the store; only issues in progress have one")
    func resolution() async throws {
        let office = try await Self.office()
        try await office.start()
        let stored = try await office.register(Office.issue(.critical, dueInHours: 20), reporter: "robert")
        let id = try #require(stored.id)
        _ = try await office.finishedRound(of: id)
        let solved = try await office.report(id, solved: true, note: "switch replaced")
        #expect(solved.status == .solved && solved.resolutionNote == "switch replaced")
        await #expect(throws: IssueTrackError.notInProgress(id)) { _ = try await office.report(id, solved: true, note: "") }
        await #expect(throws: IssueTrackError.unknownIssue(99)) { _ = try await office.report(99, solved: true, note: "") }
        await #expect(throws: IssueTrackError.unknownEmployee("ghost")) {
            _ = try await office.register(Office.issue(.critical, dueInHours: 20), reporter: "ghost")
        }
        await #expect(throws: IssueTrackError.unknownService("plumbing")) {
            _ = try await office.register(Office.issue(.critical, dueInHours: 20, service: "plumbing"), reporter: "robert")
        }
        await office.shutdown()
    }

    @Test("after a restart: presence kept, and work taken before is still reported to its reporter")
    func restart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sade-office-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try await Self.office(directory: directory)
        try await first.start()
        try await first.setConnected("tony", false)
        try await first.setConnected("julia", true)
        await first.shutdown()

        let second = try await Self.office(directory: directory)
        try await second.start()
        #expect(try await second.disconnected() == ["pedro", "tony"])
        // Maria's critical issue #1 was seeded as in progress before this office started.
        let solved = try await second.report(1, solved: false, note: "needs a new disk")
        #expect(solved.status == .unsolved && solved.resolutionNote == "needs a new disk")
        await second.shutdown()
    }

    @Test("a new employee's agent publishes their services at once; saving them again republishes")
    func newEmployee() async throws {
        let office = try await Self.office()
        try await office.start()
        try await office.save(Service(name: "plumbing", description: "Pipes"))
        let ana = Employee(id: "ana", name: "Ana Reis", birthDate: Office.origin, email: "ana@acme.example", phone: "", services: ["plumbing"])
        try await office.save(ana)
        #expect(office.platform.directory.search(ServiceTemplate(type: "plumbing")).map(\.agent.localName) == ["ana"])
        var moved = ana
        moved.services = ["front-end"]
        try await office.save(moved)
        #expect(office.platform.directory.search(ServiceTemplate(type: "plumbing")).isEmpty)
        #expect(office.platform.directory.search(ServiceTemplate(type: "front-end")).map(\.agent.localName).contains("ana"))
        // Two saves of one employee at once run one after the other: both succeed, and the
        // one agent publishes what the store says last, whichever came last.
        var backEnd = ana
        backEnd.services = ["back-end"]
        async let first: Void = office.save(moved)
        async let second: Void = office.save(backEnd)
        _ = try await (first, second)
        let last = try #require(try await office.store.employee("ana")).services
        let other = last == ["back-end"] ? "front-end" : "back-end"
        #expect(office.platform.directory.search(ServiceTemplate(type: last[0])).filter { $0.agent.localName == "ana" }.count == 1)
        #expect(!office.platform.directory.search(ServiceTemplate(type: other)).contains { $0.agent.localName == "ana" })
        await #expect(throws: IssueTrackError.invalidEmployeeID("df")) {
            try await office.save(Employee(id: "df", name: "Df", birthDate: Office.origin, email: "", phone: "", services: []))
        }
        await #expect(throws: IssueTrackError.unknownService("nope")) {
            try await office.save(Employee(id: "bo", name: "Bo", birthDate: Office.origin, email: "", phone: "", services: ["nope"]))
        }
        await office.shutdown()
    }
}
