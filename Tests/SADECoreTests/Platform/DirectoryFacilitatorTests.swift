import SADEACL
import SADECore
import Synchronization
import SADETestTiming
import Testing

@Suite("Yellow pages (DF)", .timeLimit(.minutes(5)), .timed)
struct DirectoryFacilitatorTests {
    let platform = Environment(name: "hospital")
    let nurse = AgentIdentifier(name: "nurse-ana@hospital")
    let doctor = AgentIdentifier(name: "dr-bruno@hospital")

    @Test("register, search, modify and deregister service descriptions")
    func registerSearchModifyDeregister() throws {
        let df = platform.directory
        try df.register(
            DirectoryEntry(
                agent: nurse,
                services: [ServiceDescription(name: "vitals-check", type: "care", properties: ["sector": "ICU"])]))
        try df.register(
            DirectoryEntry(
                agent: doctor,
                services: [
                    ServiceDescription(name: "diagnosis", type: "care", protocols: ["fipa-contract-net"], properties: ["sector": "ER"]),
                    ServiceDescription(name: "prescription", type: "pharmacy"),
                ]))

        #expect(df.search(ServiceTemplate(type: "care")).map(\.agent) == [doctor, nurse])
        #expect(df.search(ServiceTemplate(type: "care"), limit: 1).count == 1)
        #expect(df.search(ServiceTemplate(properties: ["sector": "ICU"])).map(\.agent) == [nurse])
        #expect(df.search(ServiceTemplate(interactionProtocol: "fipa-contract-net")).map(\.agent) == [doctor])
        let doctorEntry = try #require(df.search(ServiceTemplate(type: "pharmacy")).first)
        #expect(doctorEntry.services.map(\.name) == ["prescription"], "only the matching services are returned")
        #expect(df.search(ServiceTemplate(type: "radiology")).isEmpty)

        try df.modify(DirectoryEntry(agent: nurse, services: [ServiceDescription(name: "vitals-check", type: "care", properties: ["sector": "ER"])]))
        #expect(df.search(ServiceTemplate(properties: ["sector": "ICU"])).isEmpty)
        #expect(df.search(ServiceTemplate(properties: ["sector": "ER"])).map(\.agent) == [doctor, nurse])

        try df.deregister(nurse)
        #expect(df.search(ServiceTemplate(type: "care")).map(\.agent) == [doctor])
        #expect(df.entry(of: nurse) == nil)
    }

    @Test("observers are told of every change until they stop observing")
    func observers() throws {
        let df = platform.directory
        let told = Mutex<[String]>([])
        let first = df.observeChanges { told.withLock { $0.append("first") } }
        df.observeChanges { told.withLock { $0.append("second") } }
        try df.register(DirectoryEntry(agent: nurse, services: [ServiceDescription(name: "vitals-check", type: "care")]))
        #expect(told.withLock { $0.sorted() } == ["first", "second"])
        df.stopObserving(first)
        try df.modify(DirectoryEntry(agent: nurse, services: []))
        try df.deregister(nurse)
        #expect(told.withLock { $0.sorted() } == ["first", "second", "second", "second"])
    }

    @Test("refuses double registration and changes to unknown entries")
    func errors() throws {
        let df = platform.directory
        let entry = DirectoryEntry(agent: nurse, services: [])
        try df.register(entry)
        #expect(throws: DirectoryFacilitator.DirectoryError.alreadyRegistered(nurse)) { try df.register(entry) }
        #expect(throws: DirectoryFacilitator.DirectoryError.notRegistered(doctor)) {
            try df.modify(DirectoryEntry(agent: doctor, services: []))
        }
        #expect(throws: DirectoryFacilitator.DirectoryError.notRegistered(doctor)) { try df.deregister(doctor) }
    }

    @Test("an agent's services are published while it is active")
    func agentPublishesServicesOnStart() async throws {
        let agent = Agent("Helpdesk", on: platform) {
            ServiceDescription(name: "fix-network", type: "it-support")
        }
        #expect(platform.directory.search(ServiceTemplate(type: "it-support")).isEmpty)
        try await agent.start()
        #expect(platform.directory.search(ServiceTemplate(type: "it-support")).map(\.agent) == [agent.identifier])
        await agent.stop()
        #expect(platform.directory.search(ServiceTemplate(type: "it-support")).isEmpty)
    }

    @Test("an agent whose services are already published does not start half-registered")
    func startFailsCleanlyWhenServicesAreTaken() async throws {
        let agent = Agent("Helpdesk", on: platform) { ServiceDescription(name: "fix-network", type: "it-support") }
        try platform.directory.register(DirectoryEntry(agent: agent.identifier, services: []))
        await #expect(throws: DirectoryFacilitator.DirectoryError.alreadyRegistered(agent.identifier)) {
            try await agent.start()
        }
        #expect(platform.agent(named: "Helpdesk") == nil)
        #expect(await agent.state == .initiated)
    }
}
