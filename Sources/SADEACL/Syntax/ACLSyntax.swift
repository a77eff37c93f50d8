/// How bytes are classified by the lexer and the writer.
enum ACLSyntax {
    /// Space, tab, line feed and carriage return: the white space of fipa00070.
    @inline(__always) static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// Whether `byte` may continue a word: anything but control characters, space and parentheses.
    @inline(__always) static func isWordByte(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte != UInt8(ascii: "(") && byte != UInt8(ascii: ")")
    }

    /// Whether `byte` ends a number or date-time: white space, a parenthesis, or a control character.
    @inline(__always) static func isDelimiter(_ byte: UInt8) -> Bool {
        byte <= 0x20 || byte == UInt8(ascii: "(") || byte == UInt8(ascii: ")")
    }

    @inline(__always) static func isDigit(_ byte: UInt8) -> Bool { byte &- 48 < 10 }

    /// Whether the writer may print `text` as a bare word: ASCII word characters only, not
    /// starting with anything that would read back as another token (digit, sign, `.`,
    /// `#`, `@`, `"`) or as a parameter name (`:`). Stricter than the grammar on purpose,
    /// so that other FIPA parsers (JADE's among them) read it back as the same word.
    static func isBareWord(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = text.first else { return false }
        switch first {
        case UInt8(ascii: "#"), UInt8(ascii: "@"), UInt8(ascii: "\""), UInt8(ascii: ":"), UInt8(ascii: "-"),
            UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return false
        default: break
        }
        for byte in text where byte <= 0x20 || byte >= 0x7F || byte == UInt8(ascii: "(") || byte == UInt8(ascii: ")")
            || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
        {
            return false
        }
        return true
    }

    /// Whether the word `token` equals `keyword` (lowercase ASCII), ignoring ASCII case.
    /// Safe for word bytes only: folding with 0x20 maps no other word byte onto a letter.
    @inline(__always) static func equalsIgnoringCase(
        _ input: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ keyword: StaticString
    ) -> Bool {
        let count = keyword.utf8CodeUnitCount
        guard end - start == count else { return false }
        let bytes = keyword.utf8Start
        for index in 0..<count where input[start + index] | 0x20 != bytes[index] | 0x20 {
            return false
        }
        return true
    }

    /// A reader's rendering of the character at `offset`: `'x'`, `'é'`, or `byte 0x07`.
    static func describeCharacter(at offset: Int, in input: UnsafeBufferPointer<UInt8>) -> String {
        guard offset < input.count else { return "end of input" }
        let byte = input[offset]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        if byte < 0x80 { return String(format2Hex: byte) }
        var end = offset + 1
        while end < input.count, end - offset < 4, input[end] & 0xC0 == 0x80 { end += 1 }
        if let text = String(validating: input[offset..<end], as: UTF8.self), let scalar = text.unicodeScalars.first {
            return "'\(Character(scalar))'"
        }
        return String(format2Hex: byte)
    }
}

extension String {
    /// `byte 0x07`, for characters that cannot be shown.
    fileprivate init(format2Hex byte: UInt8) {
        let digits = Array("0123456789ABCDEF")
        self = "byte 0x\(digits[Int(byte >> 4)])\(digits[Int(byte & 15)])"
    }
}
