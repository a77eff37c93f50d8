extension ACLExpression: CustomStringConvertible {
    /// The expression in the FIPA string syntax, on one line: lists in parentheses with
    /// single spaces, strings quoted (`"` and `\` escaped), words and numbers bare. A word
    /// or number whose text would not read back as one (say `.word("a b")`) is quoted.
    public var description: String {
        var writer = ACLWriter(capacity: 64)
        writer.appendExpression(self)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}

extension ACLWriter {
    /// Appends `expression` as ``ACLExpression/description`` shows it.
    mutating func appendExpression(_ expression: ACLExpression) {
        switch expression {
        case .word(let text):
            if Self.reads(text, as: .word) { appendRaw(text) } else { appendQuoted(text) }
        case .number(let text):
            if Self.reads(text, as: .number) { appendRaw(text) } else { appendQuoted(text) }
        case .string(let text):
            appendQuoted(text)
        case .list(let elements):
            bytes.append(UInt8(ascii: "("))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: " ")) }
                appendExpression(element)
            }
            bytes.append(UInt8(ascii: ")"))
        }
    }

    /// Whether `text`, written bare, reads back as one token of `kind` with the same text
    /// (a date-time counts as a word, as the expression parser makes it one).
    private static func reads(_ text: String, as kind: ACLToken.Kind) -> Bool {
        var text = text
        return text.withUTF8 { input in
            var lexer = ACLLexer(input, limits: .default)
            guard let token = try? lexer.next(), token.start == 0, token.end == input.count else { return false }
            return token.kind == kind || (kind == .word && token.kind == .dateTime)
        }
    }
}
