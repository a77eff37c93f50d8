import Foundation
import SADEACL
import SADETestTiming
import Testing

@Suite("FIPA string codec: printing and round trips", .timeLimit(.minutes(5)), .timed)
struct ACLStringCodecTests {
    let codec = ACLStringCodec()

    func encoded(_ message: ACLMessage) throws -> String {
        try codec.encode(message) as String
    }

    @Test("every parameter, for every performative, comes back exactly", arguments: Performative.allCases)
    func roundTripEveryPerformative(performative: Performative) throws {
        var message = ACLMessageTests.everyParameter
        message.performative = performative
        let text = try encoded(message)
        #expect(try codec.decode(text) == message)
        let bytes: [UInt8] = try codec.encode(message)
        #expect(try codec.decode(bytes) == message)
        #expect(text.hasPrefix("(\(performative.rawValue) :sender "))
    }

    @Test("a message with every parameter prints in fipa00061 order, on one line")
    func printsEveryParameter() throws {
        let expected = """
            (cfp :sender (agent-identifier :name initiator@hospital :addresses (sequence tcp://10.0.0.1:7000)) \
            :receiver (set (agent-identifier :name nurse-1@hospital) (agent-identifier :name nurse-2@hospital)) \
            :reply-to (set (agent-identifier :name coordinator@hospital)) \
            :content "((action (agent-identifier :name nurse-1) (visit bed-12)))" \
            :language fipa-sl :encoding utf-8 :ontology care-tasks :protocol fipa-contract-net \
            :conversation-id cnp-42 :reply-with cfp-42-1 :in-reply-to req-7 :reply-by 20261118T110640250Z \
            :X-priority high :X-sector ICU)
            """
        #expect(try encoded(ACLMessageTests.everyParameter) == expected)
        #expect(ACLMessageTests.everyParameter.description == expected)
    }

    @Test("the smallest message is the performative in parentheses")
    func minimal() throws {
        #expect(try encoded(ACLMessage(.inform)) == "(inform)")
        #expect(try codec.decode("(inform)") == ACLMessage(.inform))
        #expect(try codec.decode("  \n\t(not-understood)\r\n ") == ACLMessage(.notUnderstood))
    }

    @Test("values that are not words are quoted; quotes and backslashes escaped, like JADE")
    func quoting() throws {
        let message = ACLMessage(
            .inform, receivers: ["a b", "", "tcp://x", "3com", ":name", "café"],
            content: #"say "hi" \ bye"#, language: "two words", ontology: "(paren", conversationID: "42",
            replyWith: "-x", inReplyTo: #"q"uote"#, userDefined: ["X-empty": "", "x-lower": "ok"])
        let expected = #"""
            (inform :receiver (set (agent-identifier :name "a b") (agent-identifier :name "") \#
            (agent-identifier :name tcp://x) (agent-identifier :name "3com") (agent-identifier :name ":name") \#
            (agent-identifier :name "café")) :content "say \"hi\" \\ bye" :language "two words" \#
            :ontology "(paren" :conversation-id "42" :reply-with "-x" :in-reply-to "q\"uote" :X-empty "" :x-lower ok)
            """#
        #expect(try encoded(message) == expected)
        #expect(try codec.decode(expected) == message)
    }

    @Test("content is always quoted, even when it is a single word")
    func contentAlwaysQuoted() throws {
        #expect(try encoded(ACLMessage(.inform, content: "ping")) == #"(inform :content "ping")"#)
        #expect(try encoded(ACLMessage(.inform, content: "")) == #"(inform :content "")"#)
    }

    @Test("hard strings survive: empty, unicode, quotes, backslashes, line breaks, control characters", arguments: [
        "", " ", "\"", "\\", "\\\"", "\"\\", "line 1\nline 2\r\n\tend", "ünïcödé ✓ 𝄞 日本", "\u{0}\u{1}\u{7F}",
        "(unbalanced", ")", "#3\"abc", "20001205T083000000Z", "-12", ":content", "a\\nb", "\\\\n",
    ])
    func hardStrings(text: String) throws {
        let message = ACLMessage(
            .request, sender: AgentIdentifier(name: text, addresses: [text]), receivers: [AgentIdentifier(name: text)],
            content: text, language: text, encoding: text, ontology: text, interactionProtocol: text,
            conversationID: text, replyWith: text, inReplyTo: text, userDefined: ["X-t": text])
        let printed = try encoded(message)
        #expect(try codec.decode(printed) == message, "printed: \(printed)")
    }

    @Test("reply-by prints in the FIPA UTC form and reads back to the millisecond")
    func replyBy() throws {
        let date = Date(timeIntervalSince1970: 975_999_000.007)  // 2000-12-05T06:50:00.007Z
        let message = ACLMessage(.request, replyBy: date)
        #expect(try encoded(message) == "(request :reply-by 20001205T065000007Z)")
        #expect(try codec.decode("(request :reply-by 20001205T065000007Z)").replyBy == date)
        #expect(try codec.decode("(request :reply-by 20001205T065000007z)").replyBy == date)
        let epoch = ACLMessage(.inform, replyBy: Date(timeIntervalSince1970: 0))
        #expect(try encoded(epoch) == "(inform :reply-by 19700101T000000000Z)")
        let early = ACLMessage(.inform, replyBy: Date(timeIntervalSince1970: -1.5))
        #expect(try encoded(early) == "(inform :reply-by 19691231T235958500Z)")
        #expect(try codec.decode(try encoded(early)) == early)
    }

    @Test("a date-time without a designator is local time, as fipa00070 says")
    func localDateTime() throws {
        let parsed = try #require(try codec.decode("(inform :reply-by 19960415T083000000)").replyBy)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: parsed)
        #expect([parts.year, parts.month, parts.day, parts.hour, parts.minute, parts.second] == [1996, 4, 15, 8, 30, 0])
    }

    @Test("a signed date-time is relative to now")
    func relativeDateTime() throws {
        let before = Date()
        let parsed = try #require(try codec.decode("(inform :reply-by +00000000T000100000)").replyBy)
        let after = Date()
        #expect(parsed >= before.addingTimeInterval(60 - 0.001) && parsed <= after.addingTimeInterval(60 + 0.001))
        let past = try #require(try codec.decode("(inform :reply-by -00000001T000000000)").replyBy)
        #expect(past < Date().addingTimeInterval(-86_399))
    }

    @Test("a reply-by beyond year 9999 cannot be encoded")
    func replyByOutOfRange() {
        let message = ACLMessage(.inform, replyBy: Date(timeIntervalSince1970: 253_402_300_800))  // 10000-01-01
        #expect(throws: ACLEncodingError.replyByOutOfRange(milliseconds: 253_402_300_800_000)) {
            try codec.encode(message) as [UInt8]
        }
    }

    @Test("user-defined parameters must be X- names that are words", arguments: ["priority", "X-", "X-a b", "X-(", "Y-a"])
    func badUserDefinedNames(name: String) {
        #expect(throws: ACLEncodingError.badUserDefinedParameterName(name)) {
            try codec.encode(ACLMessage(.inform, userDefined: [name: "v"])) as String
        }
    }

    @Test("description is the string form, and still prints what the codec refuses")
    func description() {
        #expect(ACLMessage(.agree, content: "ok").description == #"(agree :content "ok")"#)
        let refused = ACLMessage(.inform, userDefined: ["priority": "high"])
        #expect(refused.description == "(inform :priority high)")
    }

    @Test("resolvers nest agent identifiers and survive a round trip")
    func resolvers() throws {
        let ams = AgentIdentifier(name: "ams@p", addresses: ["http://p:7778/acc"])
        let agent = AgentIdentifier(
            name: "a@p", addresses: ["tcp://h:1", "tcp://h:2"], resolvers: [ams, AgentIdentifier(name: "r@q")])
        let message = ACLMessage(.inform, sender: agent)
        let text = try encoded(message)
        #expect(
            text == """
                (inform :sender (agent-identifier :name a@p :addresses (sequence tcp://h:1 tcp://h:2) \
                :resolvers (sequence (agent-identifier :name ams@p :addresses (sequence http://p:7778/acc)) \
                (agent-identifier :name r@q))))
                """)
        #expect(try codec.decode(text) == message)
    }

    @Test("several messages separated by white space decode one after the other")
    func decodeAll() throws {
        let messages = try codec.decodeAll("(inform)\n(request :content \"x\")  (agree)(refuse)\n")
        #expect(messages.map(\.performative) == [.inform, .request, .agree, .refuse])
        #expect(messages[1].content == "x")
        #expect(try codec.decodeAll("  \n") == [])
        #expect(try codec.decodeAll(Array("(cfp) (cfp)".utf8)).count == 2)
    }
}
