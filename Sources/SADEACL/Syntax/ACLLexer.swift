/// Splits UTF-8 input into the tokens of fipa00070: parentheses, words, quoted and
/// byte-length strings, numbers and date-times. Shared by the message parser and
/// ``ACLExpression``; works on bytes and makes no `String` until a value is asked for.
///
/// The input must be valid UTF-8 (checked by the caller), so that every slice between
/// token boundaries is too. Whitespace is space, tab, CR and LF.
struct ACLLexer {
    /// The whole input; offsets in tokens and errors are into this buffer.
    let input: UnsafeBufferPointer<UInt8>
    /// Where reading started: the start of the message being read.
    let start: Int
    /// The next byte to read.
    var position: Int
    /// Where reading stops: the end of the input, or earlier when a size limit cuts it.
    let end: Int
    /// The limits in force.
    let limits: ACLParseLimits

    /// A lexer over `input[start..<end]`; `end` below `input.count` means a size limit.
    init(_ input: UnsafeBufferPointer<UInt8>, from start: Int = 0, to end: Int? = nil, limits: ACLParseLimits) {
        self.input = input
        self.start = start
        self.position = start
        self.end = end ?? input.count
        self.limits = limits
    }

    /// An error at byte `offset`.
    func error(_ kind: ACLParseError.Kind, at offset: Int) -> ACLParseError {
        ACLParseError(kind, at: offset, in: input)
    }

    /// The error for running into ``end``: if a size limit put it there, the message
    /// starting at ``start`` is too large; otherwise the input ended too soon.
    func endError(expected: String, at offset: Int) -> ACLParseError {
        end < input.count
            ? error(.tooLarge(size: nil, limit: limits.maxMessageBytes), at: start)
            : error(.unexpectedEndOfInput(expected: expected), at: offset)
    }

    /// Reads the next token; at the end of input, an `.end` token.
    mutating func next() throws(ACLParseError) -> ACLToken {
        while position < end, ACLSyntax.isWhitespace(input[position]) { position += 1 }
        guard position < end else {
            if end < input.count { throw endError(expected: "", at: position) }
            return ACLToken(.end, position, position)
        }
        let start = position
        let byte = input[start]
        switch byte {
        case UInt8(ascii: "("):
            position += 1
            return ACLToken(.open, start, position)
        case UInt8(ascii: ")"):
            position += 1
            return ACLToken(.close, start, position)
        case UInt8(ascii: "\""):
            return try quotedString()
        case UInt8(ascii: "#"):
            return try byteLengthString()
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try number()
        case UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
            let following = start + 1 < end ? input[start + 1] : 0
            if ACLSyntax.isDigit(following)
                || (byte != UInt8(ascii: ".") && following == UInt8(ascii: ".") && start + 2 < end
                    && ACLSyntax.isDigit(input[start + 2]))
            {
                return try number()
            }
            if byte == UInt8(ascii: "-") { throw unexpectedCharacter(at: start) }
            return word()
        case UInt8(ascii: "@"), 0...0x20:
            throw unexpectedCharacter(at: start)
        default:
            return word()
        }
    }

    private func unexpectedCharacter(at offset: Int) -> ACLParseError {
        error(
            .unexpectedCharacter(
                ACLSyntax.describeCharacter(at: offset, in: input), expected: "a word, string, number or '('"),
            at: offset)
    }

    private mutating func word() -> ACLToken {
        let start = position
        position += 1
        while position < end, ACLSyntax.isWordByte(input[position]) { position += 1 }
        return ACLToken(.word, start, position)
    }

    /// `"…"` with the escapes `\"`, `\\`, `\n`, `\t`, `\r`; any other byte stands for itself.
    private mutating func quotedString() throws(ACLParseError) -> ACLToken {
        let start = position
        var index = start + 1
        var escaped = false
        while index < end {
            let byte = input[index]
            if byte == UInt8(ascii: "\"") {
                position = index + 1
                var token = ACLToken(.string, start, position)
                token.valueStart = start + 1
                token.valueEnd = index
                token.escaped = escaped
                return token
            }
            if byte == UInt8(ascii: "\\") {
                guard index + 1 < end else { break }
                switch input[index + 1] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "n"), UInt8(ascii: "t"), UInt8(ascii: "r"):
                    escaped = true
                    index += 2
                    continue
                default:
                    let character = ACLSyntax.describeCharacter(at: index + 1, in: input)
                    let shown = character.hasPrefix("'") ? String(character.dropFirst().dropLast()) : character
                    throw error(.badStringEscape("\\" + shown), at: index)
                }
            }
            index += 1
        }
        if end < input.count { throw endError(expected: "", at: start) }
        throw error(.unterminatedString, at: start)
    }

    /// `#n"` followed by exactly n bytes, which must be UTF-8 text on their own.
    private mutating func byteLengthString() throws(ACLParseError) -> ACLToken {
        let start = position
        var index = start + 1
        var length = 0
        while index < end, ACLSyntax.isDigit(input[index]) {
            length = length * 10 + Int(input[index] - 48)
            index += 1
            guard length <= input.count else {  // longer than anything that can follow
                throw error(.badByteLengthString("length is larger than the input"), at: start)
            }
        }
        guard index > start + 1 else {
            throw error(.badByteLengthString("'#' must be followed by the length in digits"), at: start)
        }
        guard index < end, input[index] == UInt8(ascii: "\"") else {
            if index >= end { throw endError(expected: "'\"' after the length of a byte-length string", at: index) }
            throw error(.badByteLengthString("the length must be followed by '\"'"), at: index)
        }
        let valueStart = index + 1
        guard length <= end - valueStart else {
            if end < input.count { throw endError(expected: "", at: start) }
            throw error(
                .badByteLengthString("says \(length) bytes but only \(end - valueStart) follow"), at: start)
        }
        let value = UnsafeBufferPointer(rebasing: input[valueStart..<(valueStart + length)])
        if let bad = firstInvalidUTF8Offset(value) {
            throw error(.badByteLengthString("its bytes are not UTF-8 text on their own"), at: valueStart + bad)
        }
        position = valueStart + length
        var token = ACLToken(.string, start, position)
        token.valueStart = valueStart
        token.valueEnd = position
        return token
    }

    /// Integers (decimal, or hexadecimal `0x…`), decimals with an optional exponent, and
    /// date-times `[+|-]YYYYMMDDTHHMMSSmmm[letter]`. Must end at a delimiter.
    private mutating func number() throws(ACLParseError) -> ACLToken {
        let start = position
        var index = start
        if input[index] == UInt8(ascii: "+") || input[index] == UInt8(ascii: "-") { index += 1 }
        let digitsStart = index
        func digits() {
            while index < end, ACLSyntax.isDigit(input[index]) { index += 1 }
        }
        digits()
        var kind = ACLToken.Kind.number
        if index - digitsStart == 8, index < end, input[index] == UInt8(ascii: "T") {
            index += 1
            let timeStart = index
            digits()
            guard index - timeStart == 9 else { throw badToken(.dateTime, from: start) }
            if index < end, input[index] | 0x20 >= UInt8(ascii: "a"), input[index] | 0x20 <= UInt8(ascii: "z") {
                index += 1
            }
            kind = .dateTime
        } else if index - digitsStart == 1, input[digitsStart] == UInt8(ascii: "0"), index < end,
            input[index] | 0x20 == UInt8(ascii: "x")
        {
            index += 1
            let hexStart = index
            while index < end, ACLSyntax.isDigit(input[index]) || (0x61...0x66).contains(input[index] | 0x20) {
                index += 1
            }
            guard index > hexStart else { throw badToken(.number, from: start) }
        } else {
            if index < end, input[index] == UInt8(ascii: ".") {
                index += 1
                digits()
            }
            if index < end, input[index] | 0x20 == UInt8(ascii: "e") {
                index += 1
                if index < end, input[index] == UInt8(ascii: "+") || input[index] == UInt8(ascii: "-") { index += 1 }
                let exponentStart = index
                digits()
                guard index > exponentStart else { throw badToken(.number, from: start) }
            }
        }
        guard index == end || ACLSyntax.isDelimiter(input[index]) else { throw badToken(kind, from: start) }
        position = index
        return ACLToken(kind, start, index)
    }

    /// A malformed number or date-time, quoting the text up to the next delimiter; or, when
    /// a size limit cut the token short, the message is too large.
    private func badToken(_ kind: ACLToken.Kind, from start: Int) -> ACLParseError {
        var stop = start
        while stop < end, !ACLSyntax.isDelimiter(input[stop]) { stop += 1 }
        if stop == end, end < input.count { return endError(expected: "", at: start) }
        stop = min(stop, start + 40)
        while stop < input.count, input[stop] & 0xC0 == 0x80 { stop += 1 }  // whole characters only
        let text = String(decoding: UnsafeBufferPointer(rebasing: input[start..<stop]), as: UTF8.self)
        if kind == .dateTime {
            return error(.badDateTime("'\(text)' is not of the form YYYYMMDDTHHMMSSmmm[Z]"), at: start)
        }
        return error(.badNumber(text), at: start)
    }
}
