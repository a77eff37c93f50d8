import Foundation
import Logging
import SADECore
import SADEExamples
import SADEIssueTrack
import SADENotification
import SADEPostgres
import SADETestSupport
import SADETestTiming
import Testing

/// Two nodes' issue tracks on one PostgreSQL database (the test process's throwaway
/// server), in one process: the office open on one node, the other forwarding to it.
@Suite("The issue track's office on several nodes", .timeLimit(.minutes(3)), .timed)
struct OfficeOnSeveralNodesTests {
    /// One node's issue track: its office over the shared company, and its calls to the other node's.
    struct Node {
        let office: IssueTrackOffice
        let calls: OfficeCalls
        let mail = RecordingMailChannel()

        init(_ name: String, database url: String, patience: Duration = .seconds(15), people: IssuePeople? = nil) async throws {
            let pool = try await CompanyBackend.pool(url)
            let platform = Environment(name: "company", clock: ManualClock())
            let outbox = try await NotificationOutbox(
                postgres: pool, channels: [mail], clock: OutboxClock(clock: platform.clock, origin: Office.origin))
            office = IssueTrackOffice(store: try await PostgresCompanyStore(pool), outbox: outbox, platform: platform, people: people)
            calls = try await OfficeCalls(pool: pool, office: office, node: name, patience: patience, logger: Logger(label: "test.\(name)"))
            await calls.start()
        }

        func stop() async {
            await office.shutdown()
            await calls.stop()
        }
    }

    /// The scenario's company seeded once in a new database; its URL.
    static func company() async throws -> String {
        let url = try await PostgresTestServer.makeDatabase()
        let store = try await PostgresCompanyStore(try await CompanyBackend.pool(url))
        try await IssueTrackScenario.seed(store, now: Office.origin)
        for employee in IssueTrackScenario.outOfOffice { try await store.setConnected(employee, false) }
        return url
    }

    @Test("with people in the loop, the question shows on both nodes, and Tony's answer given on the node without the office reaches the one with it")
    func answeredOnTheOtherNode() async throws {
        let url = try await Self.company()
        let (questions, asked) = AsyncStream.makeStream(of: IssueQuestion.self)
        let people = IssuePeople(deadline: .seconds(120)) { news in
            if case .question(let question) = news { asked.yield(question) }
        }
        let (open, closed) = (try await Node("node-a", database: url, people: people), try await Node("node-b", database: url, people: people))
        try await open.office.start()
        let stored = try await closed.office.register(Office.issue(.critical, dueInHours: 20), reporter: "robert")
        let id = try #require(stored.id)
        var questionsAsked = questions.makeAsyncIterator()
        let question = try #require(await questionsAsked.next())
        #expect(question.employee == "tony" && question.issue.id == id, "Maria is busy, Pedro away: Tony is asked")
        #expect(try await closed.office.round(of: id) == .asking(question))
        #expect(try await closed.office.question(question.id) == question)

        try await closed.office.answer(question.id, .take)
        let round = try #require(try await open.office.finishedRound(of: id))
        #expect(round.result == .taken(by: "tony") && round.declined.isEmpty)
        await #expect(throws: IssueTrackError.questionClosed(question.id)) { try await closed.office.answer(question.id, .decline) }
        #expect(try await closed.office.question(question.id) == nil)
        await open.stop()
        await closed.stop()
    }

    @Test("a node without the office registers an issue, brings an employee back and reports a result through the node with it")
    func forwardedToTheOpenOffice() async throws {
        let url = try await Self.company()
        let (open, closed) = (try await Node("node-a", database: url), try await Node("node-b", database: url))
        try await open.office.start()
        let (openIsOpen, closedIsOpen) = (await open.office.isOpen, await closed.office.isOpen)
        #expect(openIsOpen && !closedIsOpen)

        let stored = try await closed.office.register(Office.issue(.critical, dueInHours: 20), reporter: "robert")
        let id = try #require(stored.id)
        #expect(stored.reporter == "robert" && stored.status == .open)
        // The round runs on the open node; the closed one reads it from the shared store.
        let round = try #require(try await open.office.finishedRound(of: id))
        #expect(round.result == .taken(by: "tony"))
        let seen = try #require(try await closed.office.issue(id))
        #expect(seen.issue.assignee == "tony" && seen.round == .finished(round))

        // Any size: 4,000 characters of three UTF-8 bytes each, beyond a notification's 8,000 bytes.
        var long = Office.issue(.medium, dueInHours: 20, title: "長い説明")
        long.description = String(repeating: "停電", count: 2_000)
        let storedLong = try await closed.office.register(long, reporter: "robert")
        #expect(storedLong.description == long.description && storedLong.id != nil)

        // Errors come back typed.
        await #expect(throws: IssueTrackError.unknownEmployee("nobody")) {
            try await closed.office.register(Office.issue(.critical, dueInHours: 20), reporter: "nobody")
        }
        await #expect(throws: IssueTrackError.unknownIssue(1_000)) { try await closed.office.report(1_000, solved: true, note: "") }

        // Julia back in the office, said on the closed node: the open node's agent for her hears it.
        try await closed.office.setConnected("julia", true)
        #expect(try await closed.office.disconnected() == ["pedro"])
        let prototype = try await closed.office.register(
            Office.issue(.critical, dueInHours: 20, service: "prototyping", title: "Demo build broken"), reporter: "robert")
        let prototypeID = try #require(prototype.id)
        let taken = try #require(try await open.office.finishedRound(of: prototypeID))
        #expect(taken.result == .taken(by: "julia"))

        let solved = try await closed.office.report(id, solved: true, note: "switch replaced")
        #expect(solved.status == .solved && solved.resolutionNote == "switch replaced")

        // A new employee saved on the closed node gets an agent on the open one.
        try await closed.office.save(
            Employee(id: "ana", name: "Ana Alves", birthDate: Office.origin, email: "ana@acme.example", phone: "9", services: ["back-end"]))
        let published = open.office.platform.directory.search(ServiceTemplate(type: "back-end")).map { String($0.agent.localName) }
        #expect(published.contains("ana"))
        await open.stop()
        await closed.stop()
    }

    @Test("with no office open the call fails as unavailable; the office opened on the other node answers, and the first node forwards to it")
    func officeMoves() async throws {
        let url = try await Self.company()
        let (first, second) = (try await Node("node-a", database: url, patience: .seconds(2)), try await Node("node-b", database: url))
        try await first.office.start()
        let stored = try await second.office.register(Office.issue(.critical, dueInHours: 20), reporter: "robert")
        let storedID = try #require(stored.id)
        _ = try await first.office.finishedRound(of: storedID)

        await first.office.close()  // the node lost the evaluation lease
        do {
            _ = try await first.office.register(Office.issue(.critical, dueInHours: 20), reporter: "robert")
            Testing.Issue.record("registered with no office open")
        } catch {
            guard case .unavailable = error else {
                Testing.Issue.record("expected unavailable, got \(error)")
                return
            }
        }

        try await second.office.start()  // another node took over
        let moved = try await first.office.register(Office.issue(.medium, dueInHours: 20, title: "Printer jammed"), reporter: "robert")
        let movedID = try #require(moved.id)
        let round = try #require(try await second.office.finishedRound(of: movedID))
        guard case .notOffered = round.result else {
            Testing.Issue.record("a medium issue is not offered: \(round.result)")
            return
        }
        // The first round, finished on the first node, is still told on the second.
        guard case .finished(let firstRound) = try await second.office.round(of: storedID) else {
            Testing.Issue.record("the first round is not kept")
            return
        }
        #expect(firstRound.result == .taken(by: "tony"))
        await first.stop()
        await second.stop()
    }

    @Test("with two offices open at once (a lease changing hands), a call is taken by one of them only")
    func takenOnce() async throws {
        let url = try await Self.company()
        let nodes = [try await Node("node-a", database: url), try await Node("node-b", database: url), try await Node("node-c", database: url)]
        try await nodes[0].office.start()
        try await nodes[1].office.start()
        let before = try await nodes[2].office.issues().count
        for index in 0..<5 {
            _ = try await nodes[2].office.register(Office.issue(.medium, dueInHours: 20, title: "Printer \(index)"), reporter: "robert")
        }
        let issues = try await nodes[2].office.issues()
        #expect(issues.count == before + 5, "each call registered once: \(issues.map(\.issue.title))")
        for node in nodes { await node.stop() }
    }
}
