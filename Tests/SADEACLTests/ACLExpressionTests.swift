import SADEACL
import SADETestTiming
import Testing

@Suite("ACL expressions (content-language s-expressions)", .timeLimit(.minutes(5)), .timed)
struct ACLExpressionTests {
    static let dfRegistration = """
        ((action (agent-identifier :name df@p) (register (df-agent-description :name (agent-identifier :name a@p \
        :addresses (sequence tcp://h:1)) :services (set (service-description :name s :type t))))))
        """

    @Test("fipa00023's DF registration parses into nested lists, words and keywords")
    func dfRegistrationParses() throws {
        let expression = try ACLExpression(parsing: Self.dfRegistration)
        let action = try #require(expression.elements?.first)
        #expect(action.head == "action")
        let df = try #require(action.arguments.first)
        #expect(AgentIdentifier(expression: df) == AgentIdentifier(name: "df@p"))
        let register = try #require(action.arguments.dropFirst().first)
        #expect(register.head == "register")
        let description = try #require(register.arguments.first)
        #expect(description.head == "df-agent-description")
        let agent = try #require(description.parameter(":name"))
        #expect(AgentIdentifier(expression: agent) == AgentIdentifier(name: "a@p", addresses: ["tcp://h:1"]))
        let service = try #require(description.parameter("services")?.arguments.first)
        #expect(service.parameter("type") == .word("t"))
        #expect(service.parameter("name")?.text == "s")
        #expect(service.parameter("ownership") == nil)
        #expect(expression.description == Self.dfRegistration)
    }

    @Test("atoms: words with keywords, strings with escapes, numbers as written, date-times as words")
    func atoms() throws {
        let parsed = try ACLExpression.parseSequence(#"  :name "a \"q\" \\ b" -12.5e3 0x1F 20001205T083000000Z #3"a b x"#)
        #expect(
            parsed == [
                .word(":name"), .string(#"a "q" \ b"#), .number("-12.5e3"), .number("0x1F"),
                .word("20001205T083000000Z"), .string("a b"), .word("x"),
            ])
        #expect(try ACLExpression.parseSequence("") == [])
        #expect(try ACLExpression(parsing: " ( ) ") == .list([]))
    }

    @Test("printing then parsing gives the same expression", arguments: [
        "(a (b \"c d\") 1 -2.5 :k \"\" (\"\\\\\" \"\\\"\"))", "x", "\"\"", "()", "(((())))", "(a\n\t b)",
        "(é \"ü\\n\" 𝄞)", "20001205T083000000Z", "(+x .y a\"b)",
    ])
    func printParse(text: String) throws {
        let expression = try ACLExpression(parsing: text)
        #expect(try ACLExpression(parsing: expression.description) == expression)
    }

    @Test("exact printing: single spaces, strings quoted, JADE escapes")
    func exactPrinting() {
        let expression = ACLExpression.list([
            .word("fire"), .word(":room"), .string("kitchen \"A\""), .number("3"), .list([]), .string("back\\slash"),
        ])
        #expect(expression.description == #"(fire :room "kitchen \"A\"" 3 () "back\\slash")"#)
    }

    @Test("words and numbers that would not read back as themselves are quoted")
    func unreadableAtomsQuoted() throws {
        #expect(ACLExpression.word("a b").description == #""a b""#)
        #expect(ACLExpression.word("").description == #""""#)
        #expect(ACLExpression.word("12").description == #""12""#)
        #expect(ACLExpression.number("twelve").description == #""twelve""#)
        #expect(ACLExpression.atom("a b") == .string("a b"))
        #expect(ACLExpression.atom("ab") == .word("ab"))
    }

    @Test("agent identifiers convert to and from expressions")
    func agentIdentifiers() throws {
        let agent = AgentIdentifier(name: "a b@p", addresses: ["tcp://h:1"], resolvers: [AgentIdentifier(name: "ams@p")])
        let expression = ACLExpression(agent)
        #expect(
            expression.description
                == #"(agent-identifier :name "a b@p" :addresses (sequence tcp://h:1) :resolvers (sequence (agent-identifier :name ams@p)))"#)
        #expect(AgentIdentifier(expression: expression) == agent)
        #expect(AgentIdentifier(expression: .word("x")) == nil)
        #expect(AgentIdentifier(expression: try ACLExpression(parsing: "(agent-identifier :addresses (sequence u))")) == nil)
    }

    @Test("errors: one expression only, balanced parentheses, depth bounded", arguments: [
        ("a b", ACLParseError.Kind.unexpectedToken(found: "word b", expected: "end of input after the expression"), 3),
        ("", .unexpectedEndOfInput(expected: "an expression"), 1),
        ("(a", .unexpectedEndOfInput(expected: "')'"), 3),
        (")", .unexpectedToken(found: "')'", expected: "an expression"), 1),
        ("(a \"b)", .unterminatedString, 4),
    ])
    func errors(text: String, kind: ACLParseError.Kind, column: Int) {
        do {
            _ = try ACLExpression(parsing: text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.kind == kind)
            #expect(error.column == column)
        }
    }

    @Test("nesting beyond the depth limit is refused without using up the stack")
    func depthLimit() {
        let deep = String(repeating: "(", count: 200_000) + String(repeating: ")", count: 200_000)
        #expect(throws: ACLParseError(.tooDeep(limit: 64), line: 1, column: 65, offset: 64)) {
            try ACLExpression(parsing: deep)
        }
        let limits = ACLParseLimits(maxDepth: 3)
        #expect(throws: Never.self) { try ACLExpression(parsing: "(((x)))", limits: limits) }
        #expect(throws: ACLParseError.self) { try ACLExpression(parsing: "((((x))))", limits: limits) }
        #expect(throws: ACLParseError.self) {
            try ACLExpression(parsing: "(x)", limits: ACLParseLimits(maxMessageBytes: 2))
        }
    }
}
