import Foundation
import SADEACL
import SADETestTiming
import Testing

@Suite("JSON codec", .timeLimit(.minutes(5)), .timed)
struct ACLJSONCodecTests {
    let codec = ACLJSONCodec()

    @Test("round trip of every parameter, for every performative", arguments: Performative.allCases)
    func roundTrip(performative: Performative) throws {
        var message = ACLMessageTests.everyParameter
        message.performative = performative
        message.sender?.resolvers = [AgentIdentifier(name: "ams@hospital")]
        #expect(try codec.decode(try codec.encode(message)) == message)
    }

    @Test("both codecs serve a transport through the ACLCodec protocol", arguments: [
        ACLJSONCodec() as any ACLCodec, ACLStringCodec() as any ACLCodec,
    ])
    func throughTheProtocol(codec: any ACLCodec) throws {
        let message = ACLMessageTests.everyParameter
        #expect(try codec.decode(try codec.encode(message)) == message)
        #expect(throws: (any Error).self) { try codec.decode(Array("nonsense".utf8)) }
    }

    @Test("compact output with sorted keys and unescaped slashes")
    func compactShape() throws {
        let message = ACLMessage(.inform, sender: AgentIdentifier(name: "a", addresses: ["tcp://h:1"]), content: "x")
        let text = String(decoding: try codec.encode(message), as: UTF8.self)
        #expect(text == #"{"content":"x","performative":"inform","sender":{"addresses":["tcp://h:1"],"name":"a"}}"#)
        let pretty = String(decoding: try ACLJSONCodec(prettyPrinted: true).encode(message), as: UTF8.self)
        #expect(pretty.contains("\n  \"performative\" : \"inform\""))
    }

    @Test("resolvers appear in JSON only when there are some, and old JSON without them still decodes")
    func resolversCompatible() throws {
        let plain = try JSONEncoder().encode(AgentIdentifier(name: "a"))
        #expect(String(decoding: plain, as: UTF8.self) == #"{"name":"a"}"#)
        let nested = AgentIdentifier(name: "a", resolvers: [AgentIdentifier(name: "r", addresses: ["u"])])
        let json = try JSONEncoder().encode(nested)
        #expect(String(decoding: json, as: UTF8.self).contains(#""resolvers":[{"#))
        #expect(try JSONDecoder().decode(AgentIdentifier.self, from: json) == nested)
        #expect(try JSONDecoder().decode(AgentIdentifier.self, from: Data(#"{"name":"b","addresses":["x"]}"#.utf8)) == AgentIdentifier(name: "b", addresses: ["x"]))
    }

    @Test("decoding failures say where and what", arguments: [
        (#"{"performative":"inform","receiver":[{"name":3}]}"#, "line 1: at receiver[0].name: expected a string"),
        (#"{"content":"x"}"#, "line 1: missing key 'performative'"),
        (#"{"performative":"inform""#, "line 1: not valid JSON"),
        (#"{"performative":"shout"}"#, "line 1: at performative: "),
    ])
    func failures(json: String, prefix: String) throws {
        do {
            _ = try codec.decode(Array(json.utf8))
            Issue.record("accepted \(json)")
        } catch let failure as ACLJSONCodec.DecodingFailure {
            #expect(failure.description.hasPrefix(prefix), "\(failure)")
        }
    }

    @Test("the size limit applies before decoding")
    func sizeLimit() {
        let codec = ACLJSONCodec(limits: ACLParseLimits(maxMessageBytes: 10))
        #expect(throws: ACLParseError(.tooLarge(size: 24, limit: 10), line: 1, column: 1, offset: 0)) {
            try codec.decode(Array(#"{"performative":"agree"}"#.utf8))
        }
    }

    @Test("decodeAll reads one object, an array, JSON lines and pretty objects in a row")
    func decodeAll() throws {
        let one = #"{"performative":"inform"}"#
        #expect(try codec.decodeAll(Array(one.utf8)) == [ACLMessage(.inform)])
        #expect(try codec.decodeAll(Array("[\(one), {\"performative\":\"agree\"}]".utf8)).map(\.performative) == [.inform, .agree])
        #expect(try codec.decodeAll(Array("\(one)\n\(one)\n\n\(one)\n".utf8)).count == 3)
        let pretty = ACLJSONCodec(prettyPrinted: true)
        let twoPretty = try pretty.encode(ACLMessage(.cfp, content: "{[\"}")) + Array("\n".utf8)
            + pretty.encode(ACLMessage(.propose))
        #expect(try codec.decodeAll(twoPretty) == [ACLMessage(.cfp, content: "{[\"}"), ACLMessage(.propose)])
        #expect(try codec.decodeAll([]) == [])
    }

    @Test("decodeAll names the line of the value that fails")
    func decodeAllLine() throws {
        let text = "{\"performative\":\"inform\"}\n{\"performative\":\"inform\"}\n{\"performative\":1}\n"
        #expect(throws: ACLJSONCodec.DecodingFailure(path: "performative", reason: "expected a string", line: 3)) {
            try codec.decodeAll(Array(text.utf8))
        }
        #expect(throws: ACLJSONCodec.DecodingFailure(path: "", reason: "expected a JSON object or array but found 'x'", line: 2)) {
            try codec.decodeAll(Array("{\"performative\":\"inform\"}\nx".utf8))
        }
    }
}
