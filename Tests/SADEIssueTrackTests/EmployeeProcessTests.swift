import Foundation
import SADEACL
import SADECore
import SADEIssueTrack
import SADENet
import SADENotification
import SADETestSupport
import Synchronization
import SADETestTiming
import Testing

/// The company here; Tony and Maria (both free, both offering infrastructure) each in a
/// `sade issues-employee` process linked over loopback TCP.
private struct DistributedOffice {
    let directory: String
    let platform: Environment
    let transport: TCPTransport
    let store: CompanyStore
    let outbox: NotificationOutbox
    let mail = RecordingMailChannel()
    var employees: [String: SadeProcess] = [:]

    init() async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("sade-issues-\(UUID().uuidString)").path
        store = try SQLiteCompanyStore(directory: directory)
        try await store.save(Service(name: "infrastructure", description: "networks"))
        for id in ["robert", "tony", "maria"] {
            try await store.save(Employee(
                id: id, name: id.capitalized, birthDate: .now, email: "\(id)@acme.example", phone: "1",
                services: id == "robert" ? [] : ["infrastructure"]))
        }
        platform = Environment(name: "company")
        transport = try await TCPTransport.start(
            for: platform, configuration: TCPTransport.Configuration(connectAttempts: 2, initialBackoff: .milliseconds(20), deliveryTimeout: .seconds(5)))
        outbox = try NotificationOutbox(directory: nil, channels: [mail])
        await outbox.start()
        for id in ["tony", "maria"] {
            let process = try SadeProcess([
                "issues-employee", "--data", directory, "--employee", id, "--directory", "df@company@\(transport.addresses[0])",
                "--work-time", "3600",
            ])
            employees[id] = process
            #expect(await process.line(containing: "employee \(id) ready on tcp://") != nil)
        }
    }

    func robert(choose: @escaping @Sendable ([ACLMessage]) async -> [ACLMessage] = IssueTracker.freeFirst) async throws -> IssueAgent {
        let tracker = IssueTracker(store: store, outbox: outbox, proposalDeadline: .seconds(20), confirmationTimeout: .seconds(20), choose: choose)
        let agent = IssueAgent(
            employee: try #require(try await store.employee("robert")), environment: platform, directory: platform.dfIdentifier,
            calendar: outbox.clock, tracker: tracker)
        try await agent.start()
        return agent
    }

    func kill(_ id: String) async {
        employees[id]?.signal(SIGKILL)
        _ = await employees[id]?.finish()
    }

    func close() async {
        for process in employees.values { process.terminate() }
        for process in employees.values { _ = await process.finish() }
        await outbox.stop()
        await transport.shutdown()
        try? FileManager.default.removeItem(atPath: directory)
    }

    static func outage() -> Issue {
        Issue(title: "Core switch down", description: "d", priority: .critical, deadline: Date().addingTimeInterval(3600), service: "infrastructure")
    }
}

@Suite("Employees in separate processes", .serialized, .timeLimit(.minutes(3)), .timed)
struct EmployeeProcessTests {
    @Test("across processes the free colleague chosen by name takes the issue and the store records it")
    func takenAcrossProcesses() async throws {
        let office = try await DistributedOffice()
        let robert = try await office.robert()
        let round = try await robert.register(DistributedOffice.outage())
        #expect(round.asked.sorted() == ["maria", "tony"])
        #expect(round.proposals == ["maria": .free, "tony": .free])
        #expect(round.result == .taken(by: "maria"))
        #expect(try await office.store.issue(round.issue.id!)?.assignee == "maria")
        await robert.stop()
        await office.close()
    }

    @Test("a colleague's process killed after publishing its services: the round completes with the other")
    func killedBeforeTheOffer() async throws {
        let office = try await DistributedOffice()
        let robert = try await office.robert()
        await office.kill("maria")  // still listed in the DF
        let round = try await robert.register(DistributedOffice.outage())
        #expect(round.asked.sorted() == ["maria", "tony"])
        #expect(round.unreachable == ["maria"])
        #expect(round.result == .taken(by: "tony"))
        await robert.stop()
        await office.close()
    }

    @Test("the chosen colleague's process killed between proposal and acceptance: the issue goes to the other who proposed")
    func killedMidNegotiation() async throws {
        let office = try await DistributedOffice()
        let choices = Counter()
        let robert = try await office.robert { proposals in
            if choices.next() == 1 {
                await office.kill("maria")  // Maria, chosen first (free, and first by name), vanishes now
                #expect(proposals.count == 2)
            }
            return await IssueTracker.freeFirst(proposals)
        }
        let round = try await robert.register(DistributedOffice.outage())
        #expect(round.unreachable == ["maria"])
        #expect(round.result == .taken(by: "tony"))
        #expect(choices.value == 2)
        await robert.stop()
        await office.close()
    }

    @Test("every colleague's process gone: nobody answers, everyone offering the service is e-mailed")
    func everyoneGoneFallsBackToEmail() async throws {
        let office = try await DistributedOffice()
        let robert = try await office.robert()
        await office.kill("maria")
        await office.kill("tony")
        let round = try await robert.register(DistributedOffice.outage())
        #expect(round.unreachable.sorted() == ["maria", "tony"])
        #expect(round.result == .emailed(to: ["maria@acme.example", "tony@acme.example"], delivery: .delivered))
        #expect(office.mail.delivered.count == 1)
        await robert.stop()
        await office.close()
    }
}

/// Counts calls from any task.
private final class Counter: Sendable {
    private let count = Mutex(0)
    func next() -> Int { count.withLock { $0 += 1; return $0 } }
    var value: Int { count.withLock { $0 } }
}
