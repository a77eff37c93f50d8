extension ACLExpression {
    /// Parses exactly one expression; white space may surround it, nothing else.
    public init(parsing text: String, limits: ACLParseLimits = .default) throws(ACLParseError) {
        try Self.checkSize(text, limits)
        self = try ACLStringCodec.withUTF8(text) { input throws(ACLParseError) in
            var lexer = ACLLexer(input, limits: limits)
            guard let expression = try Self.parseNext(&lexer) else {
                throw lexer.unexpected(try lexer.next(), expected: "an expression")
            }
            let rest = try lexer.next()
            guard rest.kind == .end else { throw lexer.unexpected(rest, expected: "end of input after the expression") }
            return expression
        }
    }

    /// Parses every expression in `text`, one after the other: `(a) b "c"` gives three.
    public static func parseSequence(_ text: String, limits: ACLParseLimits = .default) throws(ACLParseError)
        -> [ACLExpression]
    {
        try checkSize(text, limits)
        return try ACLStringCodec.withUTF8(text) { input throws(ACLParseError) in
            var lexer = ACLLexer(input, limits: limits)
            var expressions: [ACLExpression] = []
            while let expression = try parseNext(&lexer) { expressions.append(expression) }
            return expressions
        }
    }

    private static func checkSize(_ text: String, _ limits: ACLParseLimits) throws(ACLParseError) {
        let size = text.utf8.count
        guard size <= limits.maxMessageBytes else {
            throw ACLParseError(.tooLarge(size: size, limit: limits.maxMessageBytes), line: 1, column: 1, offset: 0)
        }
    }

    /// The next expression, or `nil` at the end of input. Builds lists with an explicit
    /// stack, so nesting is bounded by the depth limit and never by the call stack.
    static func parseNext(_ lexer: inout ACLLexer) throws(ACLParseError) -> ACLExpression? {
        var open: [[ACLExpression]] = []
        while true {
            let token = try lexer.next()
            let expression: ACLExpression
            switch token.kind {
            case .open:
                guard open.count < lexer.limits.maxDepth else {
                    throw lexer.error(.tooDeep(limit: lexer.limits.maxDepth), at: token.start)
                }
                open.append([])
                continue
            case .close:
                guard let elements = open.popLast() else {
                    throw lexer.unexpected(token, expected: "an expression")
                }
                expression = .list(elements)
            case .end:
                guard open.isEmpty else { throw lexer.unexpected(token, expected: "')'") }
                return nil
            case .word, .dateTime:
                expression = .word(lexer.text(token))
            case .string:
                expression = .string(lexer.text(token))
            case .number:
                expression = .number(lexer.text(token))
            }
            guard !open.isEmpty else { return expression }
            open[open.count - 1].append(expression)
        }
    }
}
