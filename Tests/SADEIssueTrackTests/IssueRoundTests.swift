import Foundation
import SADEACL
import SADECore
import SADEIssueTrack
import SADETestTiming
import Testing

@Suite("Handing on an issue by Contract Net (in process, manual clock)", .timeLimit(.minutes(3)), .timed)
struct IssueRoundTests {
    @Test("a critical issue goes to the free colleague; the busy one refuses, naming its urgent issue in the refuse")
    func freeColleagueTakesCriticalIssue() async throws {
        let office = try await Office()
        let robert = try await office.reporter()
        let tony = try await office.colleague("tony")
        _ = try await office.colleague("maria")

        let round = try await robert.register(Office.issue(.critical, dueInHours: 20))
        let id = try #require(round.issue.id)
        #expect(round.asked.sorted() == ["maria", "tony"])
        #expect(round.proposals == ["tony": .free])
        let mariasIssue = try #require(try await office.store.work(of: "maria").first)
        #expect(round.refusals == ["maria": .busyWithUrgentIssue(id: mariasIssue.id!, priority: .critical, deadline: mariasIssue.deadline)])
        #expect(round.result == .taken(by: "tony"))
        #expect(round.unreachable.isEmpty)

        let stored = try #require(try await office.store.issue(id))
        #expect(stored.status == .inProgress)
        #expect(stored.assignee == "tony")
        #expect(stored.reporter == "robert")
        #expect(await tony.workload.map(\.id) == [id])
    }

    @Test("the employee who took an issue reports it solved or not, with a note; the reporter's store records it")
    func resultIsReported() async throws {
        let office = try await Office()
        let robert = try await office.reporter()
        let tony = try await office.colleague("tony")
        let first = try #require(try await robert.register(Office.issue(.critical, dueInHours: 20)).issue.id)
        await tony.report(first, solved: true, note: "replaced the switch")
        #expect(await office.tracker.resolution(of: first) == Resolution(issue: first, employee: "tony", solved: true, note: "replaced the switch"))
        #expect(await tony.workload.isEmpty)

        let second = try await robert.register(Office.issue(.critical, dueInHours: 30, title: "Printer on fire"))
        let secondID = try #require(second.issue.id)
        #expect(second.result == .taken(by: "tony"))  // free again
        await tony.report(secondID, solved: false, note: "needs a new printer")
        #expect(await office.tracker.resolution(of: secondID).solved == false)

        #expect(try await office.store.issue(first)?.status == .solved)
        #expect(try await office.store.issue(first)?.resolutionNote == "replaced the switch")
        #expect(try await office.store.issue(secondID)?.status == .unsolved)
        #expect(try await office.store.issue(secondID)?.resolutionNote == "needs a new printer")
    }

    @Test("an employee who took a critical issue due soon refuses the next one, naming it")
    func takenUrgentIssueMakesBusy() async throws {
        let office = try await Office()
        let robert = try await office.reporter()
        _ = try await office.colleague("tony")
        let first = try await robert.register(Office.issue(.critical, dueInHours: 20))
        #expect(first.result == .taken(by: "tony"))

        let second = try await robert.register(Office.issue(.high, dueInHours: 10, title: "VPN down"))
        #expect(second.refusals == ["tony": .busyWithUrgentIssue(id: first.issue.id!, priority: .critical, deadline: first.issue.deadline)])
        guard case .emailed(let addresses, .delivered) = second.result else {
            Testing.Issue.record("expected the e-mail fallback, got \(second.result)")
            return
        }
        #expect(addresses == ["maria@acme.example", "pedro@acme.example", "tony@acme.example"])
    }

    @Test("an employee working only on medium or low issues takes a critical one")
    func mediumWorkDoesNotBlock() async throws {
        let office = try await Office()
        try await office.store.save(Employee(id: "lucas", name: "Lucas Lima", birthDate: Office.origin, email: "lucas@acme.example", phone: "1",
                                       services: ["front-end", "infrastructure"]))
        let robert = try await office.reporter()
        _ = try await office.colleague("lucas")
        let round = try await robert.register(Office.issue(.critical, dueInHours: 5))
        #expect(round.proposals == ["lucas": .onlyMediumOrLowWork(1)])
        #expect(round.result == .taken(by: "lucas"))
    }

    @Test("a colleague who is not connected refuses with (not-connected); with nobody else, everyone offering the service is e-mailed")
    func notConnectedRefuses() async throws {
        let mail = RecordingMailChannel()
        let office = try await Office(mail: mail)
        let robert = try await office.reporter()
        _ = try await office.colleague("tony", connected: false)
        let round = try await robert.register(Office.issue(.critical, dueInHours: 5))
        #expect(round.refusals == ["tony": .notConnected])
        #expect(office.events.answers == [.refuse(.notConnected)])
        #expect(round.result == .emailed(to: ["maria@acme.example", "pedro@acme.example", "tony@acme.example"], delivery: .delivered))
        let notice = try #require(mail.delivered.first)
        #expect(notice.title.contains("Core switch down"))
        #expect(notice.severity == .alarm)
        #expect(try await office.store.issue(round.issue.id!)?.status == .open)
    }

    @Test("medium and low issues are registered but never offered: no colleague hears of them")
    func mediumAndLowAreNotOffered() async throws {
        let mail = RecordingMailChannel()
        let office = try await Office(mail: mail)
        let robert = try await office.reporter()
        _ = try await office.colleague("tony")
        for priority in [IssuePriority.medium, .low] {
            let round = try await robert.register(Office.issue(priority, dueInHours: -1))
            #expect(round.result == .notOffered(reason: "\(priority.rawValue) priority issues are not offered to colleagues"))
            #expect(round.asked.isEmpty)
            #expect(try await office.store.issue(round.issue.id!)?.status == .open)
        }
        #expect(office.events.answers.isEmpty)
        #expect(mail.delivered.isEmpty)
    }

    @Test("a high issue due in three days is not offered today, but is once the clock reaches two days before it")
    func highIssueWaitsForItsDeadline() async throws {
        let office = try await Office()
        let robert = try await office.reporter()
        _ = try await office.colleague("tony")
        let early = try await robert.register(Office.issue(.high, dueInHours: 72))
        #expect(early.result == .notOffered(reason: "high priority, but due later than two days from now"))

        office.clock.advance(by: .seconds(24 * 3600))
        let later = try await robert.register(Office.issue(.high, dueInHours: 72))
        #expect(later.result == .taken(by: "tony"))
    }

    @Test("a colleague listed in the directory but gone counts as not connected; the round goes on with the others")
    func unreachableColleagueIsSkipped() async throws {
        let office = try await Office()
        let robert = try await office.reporter()
        _ = try await office.colleague("maria")
        let ghost = AgentIdentifier(name: "tony@company")  // published, then vanished without withdrawing
        try office.platform.directory.register(DirectoryEntry(agent: ghost, services: [
            ServiceDescription(name: "infrastructure:tony", type: "infrastructure", ontologies: [IssueMessages.ontology]),
        ]))
        let round = try await robert.register(Office.issue(.critical, dueInHours: 5))
        #expect(round.unreachable == ["tony"])
        #expect(round.refusals.keys.sorted() == ["maria"])
        guard case .emailed = round.result else {
            Testing.Issue.record("expected the e-mail fallback, got \(round.result)")
            return
        }
    }

    @Test("with no colleague connected for the service, nobody is asked and everyone offering it is e-mailed")
    func nobodyConnected() async throws {
        let mail = RecordingMailChannel()
        let office = try await Office(mail: mail)
        let robert = try await office.reporter()
        let round = try await robert.register(Office.issue(.high, dueInHours: 30, service: "prototyping", title: "Demo prototype"))
        #expect(round.asked.isEmpty)
        #expect(round.result == .emailed(to: ["julia@acme.example", "pedro@acme.example"], delivery: .delivered))
        #expect(mail.delivered.map(\.emailAddresses) == [["julia@acme.example", "pedro@acme.example"]])
        #expect(office.events.all.contains(.discovered(round.issue, colleagues: [])))
    }

    @Test("an employee's agent without the company's store cannot register issues, and says why")
    func onlyReportersRegister() async throws {
        let office = try await Office()
        let tony = try await office.colleague("tony")
        await #expect(throws: IssueTrackError.notAReporter("tony")) { try await tony.register(Office.issue(.critical, dueInHours: 1)) }
    }

    @Test("an agent whose services cannot be published does not stay started")
    func unpublishedAgentStops() async throws {
        let office = try await Office()
        _ = try await office.colleague("tony")
        let twin = IssueAgent(
            employee: try #require(try await office.store.employee("tony")), environment: Environment(name: "elsewhere", clock: office.clock),
            directory: AgentIdentifier(name: "df@nowhere"), calendar: office.outbox.clock)
        await #expect(throws: (any Error).self) { try await twin.start() }
        #expect(await twin.agent.state == .stopped)
    }

    @Test("the company's directory cannot be reached: nobody can be, so everyone offering the service is e-mailed")
    func directoryUnreachable() async throws {
        let mail = RecordingMailChannel()
        let office = try await Office(mail: mail)
        try await office.store.save(Employee(id: "boss", name: "The Boss", birthDate: Office.origin, email: "boss@acme.example", phone: "0", services: []))
        let boss = IssueAgent(
            employee: try #require(try await office.store.employee("boss")), environment: office.platform,
            directory: AgentIdentifier(name: "df@headquarters"), calendar: office.outbox.clock, tracker: office.tracker)
        try await boss.start()
        let round = try await boss.register(Office.issue(.critical, dueInHours: 2))
        #expect(round.asked.isEmpty)
        #expect(round.result == .emailed(to: ["maria@acme.example", "pedro@acme.example", "tony@acme.example"], delivery: .delivered))
        #expect(mail.delivered.count == 1)
    }

    @Test("a round stored before employees were asked (no `declined`) still reads, with nobody declined")
    func roundStoredBeforeDeclinations() async throws {
        let office = try await Office()
        let robert = try await office.reporter()
        _ = try await office.colleague("tony")
        let round = try await robert.register(Office.issue(.critical, dueInHours: 20))
        var stored = try #require(try JSONSerialization.jsonObject(with: try JSONEncoder().encode(round)) as? [String: Any])
        #expect(stored.removeValue(forKey: "declined") != nil, "rounds are stored with their declinations now")
        let old = try JSONDecoder().decode(IssueRound.self, from: try JSONSerialization.data(withJSONObject: stored))
        #expect(old == round && old.declined.isEmpty)
    }
}
