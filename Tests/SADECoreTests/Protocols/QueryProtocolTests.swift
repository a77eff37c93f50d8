import SADEACL
import SADECore
import SADETestTiming
import Testing

extension BeliefKey where Value == Double {
    fileprivate static let temperature: BeliefKey<Double> = "temperature"
}

@Suite("FIPA Query", .timeLimit(.minutes(3)), .timed)
struct QueryProtocolTests {
    static func thermometer(on platform: Environment) async throws -> Agent {
        try await startedAgent("Thermometer", on: platform) {
            Belief(.temperature, 37.5)
            QueryResponder { agent, query in
                switch (query.performative, query.content) {
                case (.queryIf, "(fever)"): .inform((agent.beliefs[.temperature] ?? 0) >= 38 ? "(fever)" : "(not (fever))")
                case (.queryRef, "(temperature)"): agent.beliefs[.temperature].map { .inform("\($0)") } ?? .failure("(no-reading)")
                case (.queryRef, "(password)"): .refuse("(private)")
                default: .notUnderstood("(unknown-query)")
                }
            }
        }
    }

    @Test("query-if and query-ref return the inform with the answer, read from the responder's beliefs")
    func queryAnswers() async throws {
        let platform = Environment(name: "test")
        _ = try await Self.thermometer(on: platform)
        let nurse = try await startedAgent("Nurse", on: platform)
        #expect(try await nurse.queryIf(to: "Thermometer", content: "(fever)", timeout: .seconds(120)).content == "(not (fever))")
        let answer = try await nurse.queryRef(to: "Thermometer", content: "(temperature)", timeout: .seconds(120))
        #expect(answer.content == "37.5")
        #expect(answer.interactionProtocol == "fipa-query")
    }

    @Test("a refused or not-understood query throws the matching error")
    func queryRefusals() async throws {
        let platform = Environment(name: "test")
        _ = try await Self.thermometer(on: platform)
        let nurse = try await startedAgent("Nurse", on: platform)
        let refused = await interactionError { try await nurse.queryRef(to: "Thermometer", content: "(password)", timeout: .seconds(120)) }
        #expect(refused == .refused(try #require(refused?.reply)) && refused?.reply?.content == "(private)")
        let puzzled = await interactionError { try await nurse.queryIf(to: "Thermometer", content: "(colour)", timeout: .seconds(120)) }
        #expect(puzzled == .notUnderstood(try #require(puzzled?.reply)))
        let wrongAct = await interactionError { try await nurse.queryIf(ACLMessage(.request, receivers: ["Thermometer"]), timeout: .seconds(120)) }
        guard case .invalidMessage = wrongAct else { Issue.record("a request is not a query-if"); return }
    }

    @Test("a query responder answers a fipa-query message that is not a query with not-understood")
    func strayQueryMessage() async throws {
        let platform = Environment(name: "test")
        _ = try await Self.thermometer(on: platform)
        let other = try await startedAgent("Other", on: platform)
        var probe = await EventProbe(other)
        other.send(ACLMessage(.inform, receivers: ["Thermometer"], content: "(x)", interactionProtocol: "fipa-query"))
        #expect(await probe.nextMessage()?.performative == .notUnderstood)
    }
}
