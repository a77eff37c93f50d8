import SADEACL
import SADECore
import SADETestSupport
import SADENet
import SADETestTiming
import Testing

@Suite("README: talking to agents on other machines", .timeLimit(.minutes(3)), .timed)
struct ReadmeRemoteExampleTests {
    @Test("the README's remote example runs as written against a sade platform process")
    func readmeExample() async throws {
        let (server, address) = try await SadeProcess.platform(name: "beta", participants: 11)
        defer { server.terminate() }

        let platform = Environment(name: "alpha")
        let transport = try await TCPTransport.start(
            for: platform, configuration: .init(host: "127.0.0.1", port: 0, advertisedHost: "127.0.0.1"))
        let nurse = Agent(name: "nurse", environment: platform)
        try await nurse.start()

        let echo = AgentIdentifier(name: "echo@beta", addresses: [address])
        let answer = try await nurse.request(to: echo, content: "(ping)", timeout: .seconds(5))

        let df = AgentIdentifier(name: "df@beta", addresses: [address])
        try await nurse.register([ServiceDescription(name: "triage", type: "nursing")], withDirectory: df, timeout: .seconds(5))
        let nurses = try await nurse.searchDirectory(df, for: ServiceTemplate(type: "nursing"), timeout: .seconds(5))

        let bidders = (1...11).map { AgentIdentifier(name: "bidder-\($0)@beta", addresses: [address]) }
        let outcome = try await nurse.contractNet(
            ACLMessage(.cfp, content: "(deliver parcel)"), participants: bidders, deadline: .seconds(2), resultTimeout: .seconds(10))

        await transport.shutdown()

        #expect(answer.content == "(ping)")
        #expect(nurses.map(\.agent.name) == ["nurse@alpha"])
        #expect(outcome.informs.first?.content == "(done :price 10)")
    }
}
