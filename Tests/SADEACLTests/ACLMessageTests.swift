import Foundation
import SADEACL
import SADETestTiming
import Testing

@Suite("ACL message value types", .timeLimit(.minutes(5)), .timed)
struct ACLMessageTests {
    static let everyParameter = ACLMessage(
        .cfp,
        sender: AgentIdentifier(name: "initiator@hospital", addresses: ["tcp://10.0.0.1:7000"]),
        receivers: ["nurse-1@hospital", "nurse-2@hospital"],
        replyTo: ["coordinator@hospital"],
        content: "((action (agent-identifier :name nurse-1) (visit bed-12)))",
        language: "fipa-sl",
        encoding: "utf-8",
        ontology: "care-tasks",
        interactionProtocol: "fipa-contract-net",
        conversationID: "cnp-42",
        replyWith: "cfp-42-1",
        inReplyTo: "req-7",
        replyBy: Date(timeIntervalSince1970: 1_795_000_000.25),
        userDefined: ["X-priority": "high", "X-sector": "ICU"])

    @Test("there are exactly the 22 FIPA performatives, named as in fipa00037")
    func performatives() {
        #expect(Performative.allCases.count == 22)
        #expect(Performative.queryIf.rawValue == "query-if")
        #expect(Performative.acceptProposal.description == "accept-proposal")
        #expect(Performative(rawValue: "request-whenever") == .requestWhenever)
        #expect(Performative(rawValue: "shout") == nil)
    }

    @Test("JSON round trip keeps every parameter, for every performative", arguments: Performative.allCases)
    func jsonRoundTrip(performative: Performative) throws {
        var message = Self.everyParameter
        message.performative = performative
        let data = try JSONEncoder().encode(message)
        #expect(try JSONDecoder().decode(ACLMessage.self, from: data) == message)
    }

    @Test("JSON uses the FIPA parameter names, X- parameters as keys of their own")
    func jsonShape() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = try #require(String(data: try encoder.encode(Self.everyParameter), encoding: .utf8))
        for key in [
            "\"performative\":\"cfp\"", "\"receiver\":", "\"reply-to\":", "\"conversation-id\":\"cnp-42\"",
            "\"reply-with\":", "\"in-reply-to\":", "\"protocol\":\"fipa-contract-net\"",
            "\"reply-by\":\"2026-11-18T11:06:40.250Z\"", "\"X-priority\":\"high\"",
        ] {
            #expect(json.contains(key), "missing \(key) in \(json)")
        }
        let minimal = try #require(String(data: try encoder.encode(ACLMessage(.inform)), encoding: .utf8))
        #expect(minimal == #"{"performative":"inform"}"#)
    }

    @Test("bad JSON is rejected with a decoding error", arguments: [
        #"{}"#,
        #"{"performative":"shout"}"#,
        #"{"performative":"inform","colour":"red"}"#,
        #"{"performative":"inform","reply-by":"yesterday"}"#,
        #"{"performative":"inform","receiver":"Bob"}"#,
        #"{"performative":"inform","sender":{"addresses":[]}}"#,
        #"[1,2,3]"#,
    ])
    func badJSON(json: String) {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ACLMessage.self, from: Data(json.utf8)) }
    }

    @Test("a reply goes to reply-to (else the sender) and carries the conversation")
    func makeReply() {
        let reply = Self.everyParameter.makeReply(.propose, content: "(price 10)")
        #expect(reply.performative == .propose)
        #expect(reply.receivers == ["coordinator@hospital"])
        #expect(reply.conversationID == "cnp-42")
        #expect(reply.inReplyTo == "cfp-42-1")
        #expect(reply.interactionProtocol == "fipa-contract-net")
        #expect(reply.ontology == "care-tasks")
        #expect(reply.language == "fipa-sl")
        #expect(reply.sender == nil, "the platform fills in the sender")
        #expect(reply.content == "(price 10)")

        let direct = ACLMessage(.request, sender: "alice").makeReply(.agree)
        #expect(direct.receivers == ["alice"])
        #expect(ACLMessage(.request).makeReply(.agree).receivers.isEmpty)
    }

    @Test("an agent identifier splits into local name and platform")
    func agentIdentifier() throws {
        let full = AgentIdentifier(name: "fireman@station")
        #expect(full.localName == "fireman")
        #expect(full.platform == "station")
        let local: AgentIdentifier = "fireman"
        #expect(local.localName == "fireman")
        #expect(local.platform == nil)
        let data = try JSONEncoder().encode(local)
        #expect(String(data: data, encoding: .utf8) == #"{"name":"fireman"}"#)
        #expect(try JSONDecoder().decode(AgentIdentifier.self, from: data) == local)
    }
}

@Suite("Message templates", .timeLimit(.minutes(5)), .timed)
struct MessageTemplateTests {
    let message = ACLMessage(
        .inform, sender: "nurse@ward", content: "ok", ontology: "care", interactionProtocol: "fipa-request",
        conversationID: "c1", inReplyTo: "r1")

    @Test("an empty template matches everything; each set field must match")
    func matching() {
        #expect(MessageTemplate.any.matches(message))
        #expect(MessageTemplate.performative(.inform, .failure).matches(message))
        #expect(!MessageTemplate.performative(.request).matches(message))
        #expect(MessageTemplate(senderName: "nurse").matches(message))
        #expect(!MessageTemplate(senderName: "doctor").matches(message))
        #expect(!MessageTemplate(senderName: "nurse").matches(ACLMessage(.inform)))
        #expect(MessageTemplate(conversationID: "c1", inReplyTo: "r1", interactionProtocol: "fipa-request", ontology: "care").matches(message))
        #expect(!MessageTemplate(conversationID: "c2").matches(message))
        #expect(!MessageTemplate(inReplyTo: "r2").matches(message))
        #expect(!MessageTemplate(interactionProtocol: "fipa-query").matches(message))
        #expect(!MessageTemplate(ontology: "fire").matches(message))
    }
}

@Suite("ACL JSON edge cases", .timeLimit(.minutes(5)), .timed)
struct ACLJSONEdgeCaseTests {
    @Test("a user-defined parameter without X- cannot be encoded")
    func userDefinedNeedsPrefix() {
        let message = ACLMessage(.inform, userDefined: ["priority": "high"])
        #expect(throws: EncodingError.self) { try JSONEncoder().encode(message) }
        let shadowing = ACLMessage(.inform, userDefined: ["content": "sneaky"])
        #expect(throws: EncodingError.self) { try JSONEncoder().encode(shadowing) }
    }

    @Test("reply-by is kept to the millisecond, so any date round-trips exactly")
    func replyByRoundTrips() throws {
        for seconds in [Date().timeIntervalSince1970, 1_795_000_000.1236, -1.0005, 0, 951_782_400.999] {
            let message = ACLMessage(.request, replyBy: Date(timeIntervalSince1970: seconds))
            let decoded = try JSONDecoder().decode(ACLMessage.self, from: JSONEncoder().encode(message))
            #expect(decoded == message)
            #expect(abs((message.replyBy?.timeIntervalSince1970 ?? .nan) - seconds) <= 0.0005)
        }
        var message = ACLMessage(.request)
        message.replyBy = Date(timeIntervalSince1970: 1.0004)
        #expect(message.replyBy == Date(timeIntervalSince1970: 1))
    }

    @Test("reply-by text: leap days and short fractions are read; impossible dates are not")
    func replyByParsing() throws {
        func decode(_ text: String) throws -> Date? {
            try JSONDecoder().decode(ACLMessage.self, from: Data(#"{"performative":"inform","reply-by":"\#(text)"}"#.utf8)).replyBy
        }
        #expect(try decode("2000-02-29T23:59:59.5Z") == Date(timeIntervalSince1970: 951_868_799.5))
        #expect(try decode("1970-01-01T00:00:00Z") == Date(timeIntervalSince1970: 0))
        for bad in ["2026-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-01-01T24:00:00Z", "2026-01-01 00:00:00Z",
                    "2026-01-01T00:00:00", "2026-01-01T00:00:00.1234Z", "2026-01-01T00:00:00.Z", ""] {
            #expect(throws: DecodingError.self, "\(bad)") { try decode(bad) }
        }
    }
}
