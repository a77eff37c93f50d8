import SADEACL
import SADETestTiming
import Testing

@Suite("JSONCursor: SADE's one hand-written JSON reader", .timeLimit(.minutes(5)), .timed)
struct JSONCursorTests {
    /// What reading the number at the start of `text` gives: its text, or the failure.
    static func number(_ text: String) -> String {
        var cursor = JSONCursor(text)
        do {
            return try cursor.numberText()
        } catch {
            return "\(error)"
        }
    }

    @Test("numbers follow JSON's grammar: no leading zero, no plus, digits after the point and in the exponent")
    func numberGrammar() {
        #expect(Self.number("0") == "0")
        #expect(Self.number("-12.5e+3,") == "-12.5e+3")
        #expect(Self.number("1E-2]") == "1E-2")
        #expect(Self.number("1e400") == "1e400", "read as written; too large for a Double")
        #expect(Self.number("012") == "0", "the zero is the number; what follows is for the caller")
        #expect(Self.number("+1") == "expected a number at byte 0")
        #expect(Self.number("-") == "expected a number at byte 0")
        #expect(Self.number("1.") == "expected digits after the decimal point at byte 2")
        #expect(Self.number("2e") == "expected the exponent's digits at byte 2")
    }

    @Test("number() refuses what no Double holds; skipValue reads past it")
    func hugeNumbers() throws {
        var cursor = JSONCursor("[1e400, 2]")
        var read: [Double] = []
        var failures: [String] = []
        try cursor.array { cursor throws(JSONCursor.Failure) in
            do {
                read.append(try cursor.number())
            } catch {
                failures.append("\(error)")
                try cursor.skipValue()
            }
        }
        try cursor.expectEnd()
        #expect(read == [2])
        #expect(failures == ["expected a number at byte 1"])
    }

    @Test("skipValue reads past any value and stops where the next begins")
    func skipping() throws {
        var cursor = JSONCursor(#" {"a": [true, null, "x\"y", {"b": -0.5e1}], "c": false} [1]"#)
        try cursor.skipValue()
        #expect(cursor.offset == 55)
        #expect(cursor.peek() == UInt8(ascii: "["))
        var broken = JSONCursor(#"{"a": tru}"#)
        #expect(throws: JSONCursor.Failure.self) { try broken.skipValue() }
    }

    @Test("a value that is not JSON, between good ones, is named by the line it starts on")
    func splittingMalformed() {
        let text = "{\"performative\":\"inform\"}\n\n{\"performative\": tru}\n{\"performative\":\"inform\"}\n"
        do {
            _ = try ACLJSONCodec().decodeAll(Array(text.utf8))
            Issue.record("malformed JSON was accepted")
        } catch let failure as ACLJSONCodec.DecodingFailure {
            #expect(failure.line == 3)
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test("a value nested deeper than the reader's limit is refused with its line, not read as the rest of the text")
    func splittingTooDeep() {
        let deep = String(repeating: "[", count: 70) + String(repeating: "]", count: 70)
        let text = "{\"performative\":\"inform\"}\n" + deep + "\n{\"performative\":\"inform\"}"
        #expect(throws: ACLJSONCodec.DecodingFailure.self) { try ACLJSONCodec().decodeAll(Array(text.utf8)) }
        do {
            _ = try ACLJSONCodec().decodeAll(Array(text.utf8))
        } catch let failure as ACLJSONCodec.DecodingFailure {
            #expect(failure.line == 2)
            #expect(failure.reason.contains("less nesting"))
        } catch {
            Issue.record("\(error)")
        }
    }
}
