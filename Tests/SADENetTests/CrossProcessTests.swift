import Foundation
import SADEACL
import SADECore
import SADETestSupport
import SADETestTiming
import Testing

@testable import SADENet

@Suite("Platforms in separate processes", .serialized, .timeLimit(.minutes(3)), .timed)
struct CrossProcessTests {
    @Test("a request to echo in another process is answered; sade send reaches an agent here")
    func messagesBothWays() async throws {
        let (remote, address) = try await SadeProcess.platform(name: "beta")
        defer { remote.terminate() }
        let here = Environment(name: "alpha")
        let transport = try await TCPTransport.start(for: here, configuration: quickConfiguration)
        var listener = try await Inbox("listener", on: here, echo: true)

        let echo = AgentIdentifier(name: "echo@beta", addresses: [address])
        let outcome = try await listener.agent.request(to: echo, content: "(ping 42)", timeout: .seconds(20))
        #expect(outcome.content == "(ping 42)")
        #expect(outcome.result.sender?.name == "echo@beta")

        let sender = try SadeProcess(["send", "--to", "listener@\(transport.addresses[0])", "--content", "(hello from afar)"])
        let received = try #require(await listener.next())
        #expect(received.performative == .request)
        #expect(received.content == "(hello from afar)")
        #expect(received.sender?.name.hasPrefix("sender@sade-send-") == true)
        let (status, output, _) = await sender.finish()
        #expect(status == 0)
        #expect(output.hasPrefix("(inform "))
        #expect(output.contains(":content \"(hello from afar)\""))

        remote.signal(SIGTERM)
        let ended = await remote.finish()
        #expect(ended.status == 0)
        #expect(ended.output.contains("platform beta stopped"))
        await transport.shutdown()
    }

    @Test("Contract Net with 11 participants in another process: lowest bid wins, one refuses")
    func contractNetAcrossProcesses() async throws {
        let (remote, address) = try await SadeProcess.platform(name: "market", participants: 11)
        defer { remote.terminate() }
        let here = Environment(name: "alpha")
        let transport = try await TCPTransport.start(for: here, configuration: quickConfiguration)
        let manager = try await Inbox("manager", on: here).agent
        let bidders = (1...11).map { AgentIdentifier(name: "bidder-\($0)@market", addresses: [address]) }

        let outcome = try await manager.contractNet(
            ACLMessage(.cfp, content: "(deliver parcel)"), participants: bidders, deadline: .seconds(20), resultTimeout: .seconds(20))
        #expect(outcome.proposals.count == 10)
        #expect(outcome.refusals.map(\.sender?.name) == ["bidder-11@market"])
        #expect(outcome.accepted.map(\.sender?.name) == ["bidder-1@market"])
        #expect(outcome.rejected.count == 9)
        #expect(outcome.unanswered.isEmpty)
        #expect(outcome.informs.map(\.sender?.name) == ["bidder-1@market"])
        await transport.shutdown()
    }

    @Test("a participant's process killed mid-protocol: the initiator gets a failure, not a hang")
    func participantKilledMidProtocol() async throws {
        let (remote, address) = try await SadeProcess.platform(name: "fragile", participants: 3)
        defer { remote.terminate() }
        let here = Environment(name: "alpha")
        let transport = try await TCPTransport.start(for: here, configuration: quickConfiguration)
        let manager = try await Inbox("manager", on: here).agent
        let bidders = (1...3).map { AgentIdentifier(name: "bidder-\($0)@fragile", addresses: [address]) }

        let outcome = try await manager.contractNet(
            ACLMessage(.cfp, content: "(deliver parcel)"), participants: bidders, deadline: .seconds(20), resultTimeout: .seconds(60)
        ) { proposals in
            remote.signal(SIGKILL)  // the participants vanish between proposal and acceptance
            _ = await remote.finish()
            return await ProposalSelection.lowestNumericContent(proposals)
        }
        #expect(outcome.proposals.count == 2)
        let winner = try #require(outcome.accepted.first?.sender)
        guard case .failure(let failure)? = outcome.results.first?.value else {
            Issue.record("expected a failure for \(winner), got \(outcome.results)")
            return
        }
        #expect(failure.userDefined["X-failure-reason"] == "unreachable")
        #expect(outcome.resultTimeouts.isEmpty)
        await transport.shutdown()
    }

    @Test("an agent registers its service with a DF in another process and finds it by searching")
    func remoteDirectory() async throws {
        let (remote, address) = try await SadeProcess.platform(name: "hub")
        defer { remote.terminate() }
        let here = Environment(name: "alpha")
        let transport = try await TCPTransport.start(for: here, configuration: quickConfiguration)
        let tony = try await Inbox("tony", on: here).agent
        let robert = try await Inbox("robert", on: here).agent
        let df = AgentIdentifier(name: "df@hub", addresses: [address])
        let service = ServiceDescription(name: "fix-network", type: "infrastructure", properties: ["level": "senior"])

        try await tony.register([service], withDirectory: df, timeout: .seconds(20))
        let found = try await robert.searchDirectory(df, for: ServiceTemplate(type: "infrastructure"), timeout: .seconds(20))
        #expect(found == [DirectoryEntry(agent: AgentIdentifier(name: "tony@alpha", addresses: transport.addresses), services: [service])])
        let none = try await robert.searchDirectory(df, for: ServiceTemplate(type: "cardiology"), timeout: .seconds(20))
        #expect(none.isEmpty)

        do {
            try await tony.register([service], withDirectory: df, timeout: .seconds(20))
            Issue.record("a second registration must fail")
        } catch {
            guard case .failed(let failure) = error else { throw error }
            #expect(failure.content?.contains("already-registered") == true)
        }
        try await tony.deregister(fromDirectory: df, timeout: .seconds(20))
        #expect(try await robert.searchDirectory(df, for: ServiceTemplate(type: "infrastructure"), timeout: .seconds(20)).isEmpty)
        await transport.shutdown()
    }

    @Test("sade send exits 1 with the reason when nothing answers or the agent is unknown")
    func sendFailures() async throws {
        let silent = try await RawPeer(acknowledging: true)
        let quiet = try SadeProcess(["send", "--to", "nobody@\(silent.address)", "--content", "(anyone?)", "--timeout", "1"])
        let (status, _, error) = await quiet.finish()
        #expect(status == 1)
        #expect(error.contains("no reply from nobody@\(silent.address) within 1.0 s"))
        #expect(silent.received.first?.contains(":content \"(anyone?)\"") == true)
        await silent.close()

        let (remote, address) = try await SadeProcess.platform(name: "beta")
        defer { remote.terminate() }
        let unknown = try SadeProcess(["send", "--to", "ghost@\(address)", "--content", "(hello)"])
        let result = await unknown.finish()
        #expect(result.status == 1)
        #expect(result.output.hasPrefix("(failure "))
        #expect(result.error.contains("failure: unknown-agent"))

        let badAddress = try SadeProcess(["send", "--to", "ghost@nowhere", "--content", "(hello)"])
        let usage = await badAddress.finish()
        #expect(usage.status == 64)
        #expect(usage.error.contains("NAME@tcp://HOST:PORT"))
    }
}
