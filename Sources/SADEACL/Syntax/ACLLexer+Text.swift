extension ACLLexer {
    /// The source text from `start` to `end`, exactly as written.
    func source(_ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: input[start..<end]), as: UTF8.self)
    }

    /// The value of a token: a string's text with escapes undone, any other token's source.
    func text(_ token: ACLToken) -> String {
        guard token.escaped else { return source(token.valueStart, token.valueEnd) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(token.valueEnd - token.valueStart)
        var index = token.valueStart
        while index < token.valueEnd {
            var byte = input[index]
            if byte == UInt8(ascii: "\\") {  // the lexer let only known escapes through
                index += 1
                switch input[index] {
                case UInt8(ascii: "n"): byte = 0x0A
                case UInt8(ascii: "t"): byte = 0x09
                case UInt8(ascii: "r"): byte = 0x0D
                default: byte = input[index]
                }
            }
            bytes.append(byte)
            index += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether `token` is a word starting with `:`, the form of a parameter name.
    func isParameterName(_ token: ACLToken) -> Bool {
        token.kind == .word && input[token.start] == UInt8(ascii: ":") && token.end - token.start > 1
    }

    /// A reader's rendering of a token for error messages: `')'`, `word 'foo'`, `end of input`.
    func describe(_ token: ACLToken) -> String {
        func clipped() -> String {
            var stop = min(token.end, token.start + 40)
            while stop < token.end, input[stop] & 0xC0 == 0x80 { stop += 1 }
            return source(token.start, stop) + (stop < token.end ? "…" : "")
        }
        switch token.kind {
        case .open: return "'('"
        case .close: return "')'"
        case .end: return "end of input"
        case .word: return isParameterName(token) ? "parameter \(clipped())" : "word \(clipped())"
        case .string: return "string \(clipped())"
        case .number: return "number \(clipped())"
        case .dateTime: return "date-time \(clipped())"
        }
    }

    /// The error for finding `token` where `expected` should be.
    func unexpected(_ token: ACLToken, expected: String) -> ACLParseError {
        if token.kind == .end { return endError(expected: expected, at: token.start) }
        return error(.unexpectedToken(found: describe(token), expected: expected), at: token.start)
    }

    /// Reads past the rest of a list whose `(` was just read at nesting `depth`, checking
    /// every token and the depth limit; iterative, so deep input cannot use up the stack.
    mutating func skipList(depth: Int) throws(ACLParseError) {
        var level = 1
        while true {
            let token = try next()
            switch token.kind {
            case .open:
                level += 1
                guard depth + level - 1 <= limits.maxDepth else {
                    throw error(.tooDeep(limit: limits.maxDepth), at: token.start)
                }
            case .close:
                level -= 1
                if level == 0 { return }
            case .end:
                throw endError(expected: "')'", at: token.start)
            default:
                continue
            }
        }
    }
}
