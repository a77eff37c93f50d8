/// Reads one message in the FIPA string form (fipa00070) from a lexer.
///
/// Strict: every parameter at most once, receivers and reply-to as `(set …)`, agent
/// identifiers as `(agent-identifier :name … [:addresses (sequence …)] [:resolvers
/// (sequence …)])`, `:reply-by` a date-time. Performative, parameter and keyword names
/// are matched ignoring ASCII case; user-defined `:X-` names keep the case they have.
struct ACLMessageParser {
    /// Where the tokens come from; after ``parseMessage()`` it stands just past the message.
    var lexer: ACLLexer

    /// Reads `( performative parameter* )`.
    mutating func parseMessage() throws(ACLParseError) -> ACLMessage {
        let open = try lexer.next()
        guard open.kind == .open else { throw lexer.unexpected(open, expected: "'(' to start a message") }
        try checkDepth(1, at: open.start)
        let type = try lexer.next()
        guard type.kind == .word else {
            throw lexer.unexpected(type, expected: "a performative such as inform or request")
        }
        guard let performative = Performative.named(lexer.input, type.start, type.end) else {
            throw lexer.error(.unknownPerformative(lexer.source(type.start, type.end)), at: type.start)
        }
        var message = ACLMessage(performative)
        var seen: UInt16 = 0
        while true {
            let name = try lexer.next()
            if name.kind == .close { return message }
            guard lexer.isParameterName(name) else {
                throw lexer.unexpected(name, expected: "a parameter such as :receiver or :content, or ')'")
            }
            guard let parameter = ACLMessageParameter.named(lexer.input, name.start, name.end) else {
                try parseUserDefined(name, into: &message)
                continue
            }
            let bit: UInt16 = 1 << parameter.rawValue
            guard seen & bit == 0 else {
                throw lexer.error(.duplicateParameter(lexer.source(name.start, name.end)), at: name.start)
            }
            seen |= bit
            switch parameter {
            case .sender: message.sender = try parseAgentIdentifier(for: name, depth: 2)
            case .receiver: message.receivers = try parseAgentSet(for: name)
            case .replyTo: message.replyTo = try parseAgentSet(for: name)
            case .content: message.content = try parseValue(for: name)
            case .language: message.language = try parseValue(for: name)
            case .encoding: message.encoding = try parseValue(for: name)
            case .ontology: message.ontology = try parseValue(for: name)
            case .protocol: message.interactionProtocol = try parseValue(for: name)
            case .conversationID: message.conversationID = try parseValue(for: name)
            case .replyWith: message.replyWith = try parseValue(for: name)
            case .inReplyTo: message.inReplyTo = try parseValue(for: name)
            case .replyBy: message.replyBy = try parseDateTime(for: name).date
            }
        }
    }

    /// `:X-name value`, or an unknown parameter.
    private mutating func parseUserDefined(_ name: ACLToken, into message: inout ACLMessage) throws(ACLParseError) {
        let input = lexer.input
        guard name.end - name.start > 3, input[name.start + 1] | 0x20 == UInt8(ascii: "x"),
            input[name.start + 2] == UInt8(ascii: "-")
        else {
            throw lexer.error(.unknownParameter(lexer.source(name.start, name.end)), at: name.start)
        }
        let key = lexer.source(name.start + 1, name.end)
        guard message.userDefined[key] == nil else {
            throw lexer.error(.duplicateParameter(lexer.source(name.start, name.end)), at: name.start)
        }
        message.userDefined[key] = try parseValue(for: name)
    }

    /// An expression as the value of a parameter: a word, string, number or date-time
    /// gives its text; a parenthesised expression gives its exact source text.
    private mutating func parseValue(for parameter: ACLToken) throws(ACLParseError) -> String {
        let token = try lexer.next()
        switch token.kind {
        case .string, .number, .dateTime:
            return lexer.text(token)
        case .word:
            guard !lexer.isParameterName(token) else { throw missingValue(parameter, at: token) }
            return lexer.text(token)
        case .open:
            try checkDepth(2, at: token.start)
            try lexer.skipList(depth: 2)
            return lexer.source(token.start, lexer.position)
        case .close, .end:
            throw missingValue(parameter, at: token)
        }
    }

    private mutating func parseDateTime(for parameter: ACLToken) throws(ACLParseError) -> Timestamp {
        let token = try lexer.next()
        switch token.kind {
        case .dateTime:
            do {
                return try Timestamp(fipa: UnsafeBufferPointer(rebasing: lexer.input[token.start..<token.end]))
            } catch {
                throw lexer.error(.badDateTime(error.reason), at: token.start)
            }
        case .close, .end:
            throw missingValue(parameter, at: token)
        case .word where lexer.isParameterName(token):
            throw missingValue(parameter, at: token)
        default:
            throw lexer.unexpected(token, expected: "a date-time like 20001205T083000000Z")
        }
    }

    /// `(set agent-identifier*)`.
    private mutating func parseAgentSet(for parameter: ACLToken) throws(ACLParseError) -> [AgentIdentifier] {
        try parseList(of: "set", for: parameter, depth: 2) { parser, depth throws(ACLParseError) in
            try parser.parseAgentIdentifier(for: nil, depth: depth)
        }
    }

    /// `(head element*)` where `head` is `set` or `sequence` and `element` reads one element
    /// at the depth given (one below the list). Returns the elements in order.
    private mutating func parseList<Element>(
        of head: StaticString, for parameter: ACLToken, depth: Int,
        element: (inout ACLMessageParser, Int) throws(ACLParseError) -> Element
    ) throws(ACLParseError) -> [Element] {
        let open = try lexer.next()
        guard open.kind == .open else {
            if open.kind == .close || open.kind == .end || lexer.isParameterName(open) {
                throw missingValue(parameter, at: open)
            }
            throw lexer.unexpected(open, expected: "'(\(head) …)'")
        }
        try checkDepth(depth, at: open.start)
        let word = try lexer.next()
        guard word.kind == .word, ACLSyntax.equalsIgnoringCase(lexer.input, word.start, word.end, head) else {
            throw lexer.unexpected(word, expected: "'\(head)'")
        }
        var elements: [Element] = []
        while true {
            let saved = lexer.position
            let token = try lexer.next()
            if token.kind == .close { return elements }
            if token.kind == .end { throw lexer.unexpected(token, expected: "')' to close '(\(head)'") }
            lexer.position = saved
            elements.append(try element(&self, depth + 1))
        }
    }

    /// `(agent-identifier :name n [:addresses (sequence url*)] [:resolvers (sequence aid*)])`,
    /// the value of `parameter` or (when `nil`) an element of a set or sequence.
    mutating func parseAgentIdentifier(for parameter: ACLToken?, depth: Int) throws(ACLParseError) -> AgentIdentifier {
        let open = try lexer.next()
        guard open.kind == .open else {
            if let parameter, open.kind == .close || open.kind == .end || lexer.isParameterName(open) {
                throw missingValue(parameter, at: open)
            }
            throw lexer.unexpected(open, expected: "'(agent-identifier …)'")
        }
        try checkDepth(depth, at: open.start)
        let head = try lexer.next()
        guard head.kind == .word, ACLSyntax.equalsIgnoringCase(lexer.input, head.start, head.end, "agent-identifier")
        else { throw lexer.unexpected(head, expected: "'agent-identifier'") }
        var name: String?
        var agent = AgentIdentifier(name: "")
        var seen = (addresses: false, resolvers: false)
        while true {
            let key = try lexer.next()
            if key.kind == .close { break }
            guard lexer.isParameterName(key) else {
                throw lexer.unexpected(key, expected: "a parameter such as :name or :addresses, or ')'")
            }
            let input = lexer.input
            if ACLSyntax.equalsIgnoringCase(input, key.start, key.end, ":name") {
                guard name == nil else { throw duplicate(key) }
                let value = try lexer.next()
                guard value.kind == .word || value.kind == .string, !lexer.isParameterName(value) else {
                    if value.kind == .close || value.kind == .end || lexer.isParameterName(value) {
                        throw missingValue(key, at: value)
                    }
                    throw lexer.unexpected(value, expected: "an agent name")
                }
                name = lexer.text(value)
            } else if ACLSyntax.equalsIgnoringCase(input, key.start, key.end, ":addresses") {
                guard !seen.addresses else { throw duplicate(key) }
                seen.addresses = true
                agent.addresses = try parseList(of: "sequence", for: key, depth: depth + 1) {
                    parser, _ throws(ACLParseError) in
                    let url = try parser.lexer.next()
                    guard url.kind == .word || url.kind == .string, !parser.lexer.isParameterName(url) else {
                        throw parser.lexer.unexpected(url, expected: "a transport address or ')'")
                    }
                    return parser.lexer.text(url)
                }
            } else if ACLSyntax.equalsIgnoringCase(input, key.start, key.end, ":resolvers") {
                guard !seen.resolvers else { throw duplicate(key) }
                seen.resolvers = true
                agent.resolvers = try parseList(of: "sequence", for: key, depth: depth + 1) {
                    parser, depth throws(ACLParseError) in
                    try parser.parseAgentIdentifier(for: nil, depth: depth)
                }
            } else {
                throw lexer.error(.unknownAgentIdentifierParameter(lexer.source(key.start, key.end)), at: key.start)
            }
        }
        guard let name else {
            throw lexer.error(.missingParameter(":name", of: "agent-identifier"), at: open.start)
        }
        agent.name = name
        return agent
    }

    private func checkDepth(_ depth: Int, at offset: Int) throws(ACLParseError) {
        guard depth <= lexer.limits.maxDepth else {
            throw lexer.error(.tooDeep(limit: lexer.limits.maxDepth), at: offset)
        }
    }

    private func missingValue(_ parameter: ACLToken, at token: ACLToken) -> ACLParseError {
        if token.kind == .end, lexer.end < lexer.input.count { return lexer.endError(expected: "", at: token.start) }
        return lexer.error(.missingValue(parameter: lexer.source(parameter.start, parameter.end)), at: token.start)
    }

    private func duplicate(_ key: ACLToken) -> ACLParseError {
        lexer.error(.duplicateParameter(lexer.source(key.start, key.end)), at: key.start)
    }
}
