import Foundation
import SADEACL
import SADETestTiming
import Testing

@Suite("FIPA string codec: errors say what and where", .timeLimit(.minutes(5)), .timed)
struct ACLParseErrorTests {
    let codec = ACLStringCodec()

    func failure(_ text: String, limits: ACLParseLimits = .default) -> ACLParseError? {
        do {
            _ = try ACLStringCodec(limits: limits).decode(text)
            return nil
        } catch {
            return error
        }
    }

    @Test("an unclosed message ends with 'expected ...' at the end of input, line 3 column 14")
    func unexpectedEnd() throws {
        let error = try #require(failure("(inform\n  :content \"x\"\n  :language sl"))
        #expect(error.kind == .unexpectedEndOfInput(expected: "a parameter such as :receiver or :content, or ')'"))
        #expect((error.line, error.column, error.offset) == (3, 15, 37))
        #expect(error.description == "line 3, column 15: expected a parameter such as :receiver or :content, or ')' but found end of input")
    }

    @Test("a set that is not closed: expected ')' but found end of input")
    func unclosedSet() throws {
        let error = try #require(failure("(inform :content (a (b)"))
        #expect(error.kind == .unexpectedEndOfInput(expected: "')'"))
        #expect(error.description == "line 1, column 24: expected ')' but found end of input")
    }

    @Test("errors point at the offending token", arguments: [
        ("(shout)", ACLParseError.Kind.unknownPerformative("shout"), 1, 2),
        ("(inform :colour red)", .unknownParameter(":colour"), 1, 9),
        ("(inform\n :content \"a\"\n :content \"b\")", .duplicateParameter(":content"), 3, 2),
        ("(inform :X-a 1 :X-a 2)", .duplicateParameter(":X-a"), 1, 16),
        ("(inform :language)", .missingValue(parameter: ":language"), 1, 18),
        ("(inform :language :ontology x)", .missingValue(parameter: ":language"), 1, 19),
        ("(inform :sender)", .missingValue(parameter: ":sender"), 1, 16),
        ("(inform :content \"a\\qb\")", .badStringEscape("\\q"), 1, 20),
        ("(inform :content \"abc)", .unterminatedString, 1, 18),
        ("(inform :content #9\"abc)", .badByteLengthString("says 9 bytes but only 4 follow"), 1, 18),
        ("(inform :content #x\"abc\")", .badByteLengthString("'#' must be followed by the length in digits"), 1, 18),
        ("(inform :content #3abc)", .badByteLengthString("the length must be followed by '\"'"), 1, 20),
        ("(inform :reply-by 20001305T083000000Z)", .badDateTime("month 13 is not 01-12"), 1, 19),
        ("(inform :reply-by 20010229T083000000Z)", .badDateTime("day 29 is not 01-28 in month 2 of 2001"), 1, 19),
        ("(inform :reply-by 20001205T253000000Z)", .badDateTime("time 25:30:0 is not a time of day"), 1, 19),
        ("(inform :reply-by 20001205T0830Z)", .badDateTime("'20001205T0830Z' is not of the form YYYYMMDDTHHMMSSmmm[Z]"), 1, 19),
        ("(inform :reply-by 20001205T083000000A)", .badDateTime("time zone designator 'A' is not supported; use Z (UTC) or none (local time)"), 1, 19),
        ("(inform :reply-by tomorrow)", .unexpectedToken(found: "word tomorrow", expected: "a date-time like 20001205T083000000Z"), 1, 19),
        ("(inform :ontology 12abc)", .badNumber("12abc"), 1, 19),
        ("(inform :ontology 1e)", .badNumber("1e"), 1, 19),
        ("(inform :ontology @x)", .unexpectedCharacter("'@'", expected: "a word, string, number or '('"), 1, 19),
        ("(inform :ontology -x)", .unexpectedCharacter("'-'", expected: "a word, string, number or '('"), 1, 19),
        ("(inform :ontology \u{7}x)", .unexpectedCharacter("byte 0x07", expected: "a word, string, number or '('"), 1, 19),
        ("(inform :receiver (agent-identifier :name a))", .unexpectedToken(found: "word agent-identifier", expected: "'set'"), 1, 20),
        ("(inform :receiver (set b))", .unexpectedToken(found: "word b", expected: "'(agent-identifier …)'"), 1, 24),
        ("(inform :sender (agent-identifier :addresses (sequence u)))", .missingParameter(":name", of: "agent-identifier"), 1, 17),
        ("(inform :sender (agent-identifier :name a :name b))", .duplicateParameter(":name"), 1, 43),
        ("(inform :sender (agent-identifier :name a :X-k v))", .unknownAgentIdentifierParameter(":X-k"), 1, 43),
        ("(inform :sender (agent :name a))", .unexpectedToken(found: "word agent", expected: "'agent-identifier'"), 1, 18),
        ("(inform :sender (agent-identifier :name (a)))", .unexpectedToken(found: "'('", expected: "an agent name"), 1, 41),
        ("inform", .unexpectedToken(found: "word inform", expected: "'(' to start a message"), 1, 1),
        ("", .unexpectedEndOfInput(expected: "'(' to start a message"), 1, 1),
        ("((inform))", .unexpectedToken(found: "'('", expected: "a performative such as inform or request"), 1, 2),
        ("(inform) (inform)", .unexpectedToken(found: "'('", expected: "end of input after the message"), 1, 10),
        ("(inform content)", .unexpectedToken(found: "word content", expected: "a parameter such as :receiver or :content, or ')'"), 1, 9),
        ("(inform :content \"é\" é)", .unexpectedToken(found: "word é", expected: "a parameter such as :receiver or :content, or ')'"), 1, 22),
    ])
    func positions(text: String, kind: ACLParseError.Kind, line: Int, column: Int) throws {
        let error = try #require(failure(text), "accepted: \(text)")
        #expect(error.kind == kind)
        #expect(error.line == line && error.column == column, "\(error)")
    }

    @Test("columns count characters, offsets count bytes")
    func columnsAndOffsets() throws {
        let error = try #require(failure("(inform :content \"üü\" :x 1)"))
        #expect(error.kind == .unknownParameter(":x"))
        #expect((error.line, error.column, error.offset) == (1, 23, 24))
    }

    @Test("invalid UTF-8 in bytes is refused with its offset")
    func invalidUTF8() throws {
        for bad: [UInt8] in [[0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82]] {
            let bytes = Array("(inform :content \"".utf8) + bad + Array("\")".utf8)
            #expect(throws: ACLParseError(.invalidUTF8, line: 1, column: 19, offset: 18)) { try codec.decode(bytes) }
        }
        #expect(try codec.decode(Array("(inform :content \"€𝄞\")".utf8)).content == "€𝄞")
    }

    @Test("a byte-length string that splits a character is refused")
    func byteLengthSplitsCharacter() throws {
        let error = try #require(failure("(inform :content #1\"é)"))
        #expect(error.kind == .badByteLengthString("its bytes are not UTF-8 text on their own"))
    }

    @Test("input over the size limit is refused before parsing")
    func sizeLimit() throws {
        let limits = ACLParseLimits(maxMessageBytes: 21)
        #expect(failure("(inform :content \"12\")", limits: limits)?.kind == .tooLarge(size: 22, limit: 21))
        #expect(failure("(inform :content \"1\")", limits: limits) == nil)
        let bytes = Array("(inform :content \"12\")".utf8)
        #expect(throws: ACLParseError(.tooLarge(size: 22, limit: 21), line: 1, column: 1, offset: 0)) {
            try ACLStringCodec(limits: limits).decode(bytes)
        }
        #expect(ACLParseLimits.default.maxMessageBytes == 1_048_576 && ACLParseLimits.default.maxDepth == 64)
    }

    @Test("decodeAll applies the size limit to each message")
    func sizeLimitPerMessage() throws {
        let codec = ACLStringCodec(limits: ACLParseLimits(maxMessageBytes: 30))
        let ok = String(repeating: "(inform :content \"0123456789\")\n", count: 10)
        #expect(try codec.decodeAll(ok).count == 10)
        let long = ok + "(inform :content \"0123456789012345678901234567890\")"
        #expect(throws: ACLParseError.self) { try codec.decodeAll(long) }
        do {
            _ = try codec.decodeAll(long)
        } catch {
            #expect(error.kind == .tooLarge(size: nil, limit: 30))
            #expect((error.line, error.column) == (11, 1))
            #expect(error.description == "line 11, column 1: message is longer than the limit of 30 bytes")
        }
        let cutInDateTime = "(inform) (inform :reply-by 20001205T083000000Z)"
        #expect(throws: ACLParseError(.tooLarge(size: nil, limit: 30), line: 1, column: 10, offset: 9)) {
            try codec.decodeAll(cutInDateTime)
        }
    }

    @Test("nesting beyond the depth limit is refused, in content, agent identifiers and resolvers")
    func depthLimit() throws {
        let limits = ACLParseLimits(maxDepth: 5)
        #expect(failure("(inform :content (a (b (c (d (e))))))", limits: limits)?.kind == .tooDeep(limit: 5))
        #expect(failure("(inform :content (a (b (c (d)))))", limits: limits) == nil)
        let deepContent = "(inform :content " + String(repeating: "(", count: 100_000) + String(repeating: ")", count: 100_000) + ")"
        let error = try #require(failure(deepContent))
        #expect(error.kind == .tooDeep(limit: 64))
        #expect(error.column == 81)
        var agent = "(agent-identifier :name x)"
        for _ in 0..<40 { agent = "(agent-identifier :name x :resolvers (sequence \(agent)))" }
        #expect(failure("(inform :sender \(agent))")?.kind == .tooDeep(limit: 64))
        #expect(failure("(inform)", limits: ACLParseLimits(maxDepth: 0))?.kind == .tooDeep(limit: 0))
    }
}
