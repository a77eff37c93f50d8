import Foundation
import SADEACL
import SADETestTiming
import Testing

@Suite("FIPA string codec: what it accepts", .timeLimit(.minutes(5)), .timed)
struct ACLStringCodecParsingTests {
    let codec = ACLStringCodec()

    @Test("fipa00061's inform example: weather in Prolog")
    func fipa00061Inform() throws {
        let message = try codec.decode(
            """
            (inform
              :sender (agent-identifier :name i)
              :receiver (set (agent-identifier :name j))
              :content
                "weather (today, raining)"
              :language Prolog)
            """)
        #expect(
            message
                == ACLMessage(.inform, sender: "i", receivers: ["j"], content: "weather (today, raining)", language: "Prolog"))
    }

    @Test("fipa00061's request example, with an SL action as content and a reply-with")
    func fipa00061Request() throws {
        let message = try codec.decode(
            """
            (request
              :sender (agent-identifier :name i)
              :receiver (set (agent-identifier :name j))
              :content "((action (agent-identifier :name j) (deliver box017 (loc 12 19))))"
              :protocol fipa-request
              :language fipa-sl
              :reply-with order567)
            """)
        #expect(message.performative == .request)
        #expect(message.content == "((action (agent-identifier :name j) (deliver box017 (loc 12 19))))")
        #expect(message.interactionProtocol == "fipa-request")
        #expect(message.replyWith == "order567")
        let done = try codec.decode(
            """
            (inform :sender (agent-identifier :name j) :receiver (set (agent-identifier :name i))
              :content "((done (action (agent-identifier :name j) (deliver box017 (loc 12 19)))))"
              :in-reply-to order567 :protocol fipa-request :language fipa-sl)
            """)
        #expect(done.inReplyTo == message.replyWith)
    }

    @Test("fipa00070's date-time example: 8:30 on 15 April 1996, UTC")
    func fipa00070DateTime() throws {
        let message = try codec.decode("(inform :reply-by 19960415T083000000Z)")
        #expect(message.replyBy == Date(timeIntervalSince1970: 829_557_000))
    }

    @Test("agent identifiers with addresses, as in fipa00023")
    func agentWithAddresses() throws {
        let message = try codec.decode(
            "(inform :sender (agent-identifier :name dummy@foo.com :addresses (sequence iiop://foo.com/acc http://foo.com/acc)))")
        #expect(message.sender == AgentIdentifier(name: "dummy@foo.com", addresses: ["iiop://foo.com/acc", "http://foo.com/acc"]))
    }

    @Test("an unquoted expression as content keeps its exact source text")
    func unquotedContent() throws {
        let text = "(request :content ((action (agent-identifier :name df@p)\n   (register \"x y\" #3\"a)b 12)))  :language fipa-sl)"
        let message = try codec.decode(text)
        #expect(message.content == "((action (agent-identifier :name df@p)\n   (register \"x y\" #3\"a)b 12)))")
        #expect(message.language == "fipa-sl")
        #expect(try codec.decode(try codec.encode(message) as String) == message)
    }

    @Test("any expression is accepted as the value of the other parameters")
    func expressionValues() throws {
        let message = try codec.decode(
            #"(inform :conversation-id (c 1) :reply-with 42 :in-reply-to -3.5e2 :language "fipa-sl" :ontology 20001205T083000000Z :encoding 0x1F)"#)
        #expect(message.conversationID == "(c 1)")
        #expect(message.replyWith == "42")
        #expect(message.inReplyTo == "-3.5e2")
        #expect(message.language == "fipa-sl")
        #expect(message.ontology == "20001205T083000000Z")
        #expect(message.encoding == "0x1F")
    }

    @Test("byte-length strings count UTF-8 bytes and may hold quotes and parentheses")
    func byteLengthStrings() throws {
        #expect(try codec.decode(#"(inform :content #5"a"b)c)"#).content == #"a"b)c"#)
        #expect(try codec.decode(#"(inform :content #0")"#).content == "")
        #expect(try codec.decode("(inform :content #5\"café)").content == "café")
        #expect(try codec.decode("(inform :content #3\"a\nb :language x)").language == "x")
    }

    @Test("escapes in quoted strings: \\\" \\\\ \\n \\t \\r")
    func escapes() throws {
        let message = try codec.decode(#"(inform :content "a\"b\\c\nd\te\rf")"#)
        #expect(message.content == "a\"b\\c\nd\te\rf")
    }

    @Test("performatives, parameter names and keywords are read in any case; X- names keep theirs")
    func caseInsensitive() throws {
        let message = try codec.decode(
            "(INFORM :Sender (Agent-Identifier :NAME a :Addresses (SEQUENCE u)) :RECEIVER (Set (agent-identifier :name b)) :X-Mixed v :x-low w)")
        #expect(message.performative == .inform)
        #expect(message.sender == AgentIdentifier(name: "a", addresses: ["u"]))
        #expect(message.receivers == ["b"])
        #expect(message.userDefined == ["X-Mixed": "v", "x-low": "w"])
        #expect(try codec.decode("(Accept-Proposal)").performative == .acceptProposal)
    }

    @Test("reads a message as JADE prints it: uppercase act, spaces inside parentheses, JADE names")
    func jadeOutput() throws {
        let message = try codec.decode(
            """
            (REQUEST
             :sender  ( agent-identifier :name da0@host:1099/JADE  :addresses (sequence http://host:7778/acc ))
             :receiver  (set ( agent-identifier :name ams@host:1099/JADE  :addresses (sequence http://host:7778/acc )) )
             :content  "((action (agent-identifier :name ams@host:1099/JADE) (search-agents)))"
             :language  fipa-sl0  :ontology  FIPA-Agent-Management  :protocol  fipa-request
             :conversation-id  C1234_5678 )
            """)
        #expect(message.performative == .request)
        #expect(message.sender == AgentIdentifier(name: "da0@host:1099/JADE", addresses: ["http://host:7778/acc"]))
        #expect(message.receivers.map(\.name) == ["ams@host:1099/JADE"])
        #expect(message.ontology == "FIPA-Agent-Management")
        #expect(message.conversationID == "C1234_5678")
    }

    @Test("an empty set of receivers and an agent name in quotes are accepted")
    func emptySetAndQuotedName() throws {
        let message = try codec.decode(#"(inform :receiver (set) :sender (agent-identifier :name "a b" :addresses (sequence)))"#)
        #expect(message.receivers.isEmpty)
        #expect(message.sender == AgentIdentifier(name: "a b"))
    }

    @Test("numbers, words and date-times as the grammar draws them", arguments: [
        ("1", "1"), ("+1", "+1"), ("-0.5", "-0.5"), (".5", ".5"), ("5.", "5."), ("1e10", "1e10"), ("1.5E-3", "1.5E-3"),
        ("0xFF", "0xFF"), ("+.5", "+.5"), ("+x", "+x"), (".x", ".x"), ("a\"b", "a\"b"), ("x#y@z", "x#y@z"),
        ("+20001205T083000000", "+20001205T083000000"),
    ])
    func tokens(source: String, value: String) throws {
        #expect(try codec.decode("(inform :ontology \(source))").ontology == value)
    }
}
