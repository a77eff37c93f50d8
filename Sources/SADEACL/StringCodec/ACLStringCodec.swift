/// The FIPA-ACL string form of fipa00070: `(inform :sender (agent-identifier :name a@p)
/// :receiver (set (agent-identifier :name b@p)) :content "…" :language fipa-sl)`.
///
/// Decoding is strict and reports what is wrong and where (``ACLParseError``); it
/// accepts performative and parameter names in any case, user-defined `:X-` parameters
/// (their names kept as written), quoted strings with the escapes `\"` `\\` `\n` `\t` `\r`,
/// byte-length strings `#12"…`, numbers, date-times with or without `Z` or a sign, and a
/// parenthesised expression as any value (kept as its exact source text); a bare word
/// starting with `:` where a value should be is taken for a missing value. Encoding writes
/// one line, lowercase names, values as bare words where possible, `:content` always
/// quoted, `:reply-by` in UTC as `YYYYMMDDTHHMMSSmmmZ`. For every message `m`,
/// `decode(encode(m)) == m`.
public struct ACLStringCodec: ACLCodec {
    /// The size and nesting bounds decoding keeps to.
    public var limits: ACLParseLimits

    /// Creates a codec with the given limits.
    public init(limits: ACLParseLimits = .default) {
        self.limits = limits
    }

    /// The string form of `message`, as UTF-8.
    public func encode(_ message: ACLMessage) throws(ACLEncodingError) -> [UInt8] {
        var writer = ACLWriter(capacity: 192 + (message.content?.utf8.count ?? 0))
        try writer.appendMessage(message)
        return writer.bytes
    }

    /// The string form of `message`.
    public func encode(_ message: ACLMessage) throws(ACLEncodingError) -> String {
        let bytes: [UInt8] = try encode(message)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The one message in `text`; white space may surround it, nothing else.
    public func decode(_ text: String) throws(ACLParseError) -> ACLMessage {
        let size = text.utf8.count
        guard size <= limits.maxMessageBytes else {
            throw ACLParseError(.tooLarge(size: size, limit: limits.maxMessageBytes), line: 1, column: 1, offset: 0)
        }
        return try Self.withUTF8(text) { input throws(ACLParseError) in try decodeOne(input) }
    }

    /// The one message in the UTF-8 `bytes`; white space may surround it, nothing else.
    public func decode(_ bytes: [UInt8]) throws(ACLParseError) -> ACLMessage {
        guard bytes.count <= limits.maxMessageBytes else {
            throw ACLParseError(
                .tooLarge(size: bytes.count, limit: limits.maxMessageBytes), line: 1, column: 1, offset: 0)
        }
        return try Self.withValidUTF8(bytes) { input throws(ACLParseError) in try decodeOne(input) }
    }

    /// Every message in `text`, one after the other, separated by white space. The size
    /// limit applies to each message, not to the whole text.
    public func decodeAll(_ text: String) throws(ACLParseError) -> [ACLMessage] {
        try Self.withUTF8(text) { input throws(ACLParseError) in try decodeEach(input) }
    }

    /// Every message in the UTF-8 `bytes`; see ``decodeAll(_:)-(String)``.
    public func decodeAll(_ bytes: [UInt8]) throws(ACLParseError) -> [ACLMessage] {
        try Self.withValidUTF8(bytes) { input throws(ACLParseError) in try decodeEach(input) }
    }

    private func decodeOne(_ input: UnsafeBufferPointer<UInt8>) throws(ACLParseError) -> ACLMessage {
        var parser = ACLMessageParser(lexer: ACLLexer(input, limits: limits))
        let message = try parser.parseMessage()
        let rest = try parser.lexer.next()
        guard rest.kind == .end else { throw parser.lexer.unexpected(rest, expected: "end of input after the message") }
        return message
    }

    private func decodeEach(_ input: UnsafeBufferPointer<UInt8>) throws(ACLParseError) -> [ACLMessage] {
        var messages: [ACLMessage] = []
        var position = 0
        while true {
            while position < input.count, ACLSyntax.isWhitespace(input[position]) { position += 1 }
            guard position < input.count else { return messages }
            let end = input.count - position > limits.maxMessageBytes ? position + limits.maxMessageBytes : input.count
            var parser = ACLMessageParser(lexer: ACLLexer(input, from: position, to: end, limits: limits))
            messages.append(try parser.parseMessage())
            position = parser.lexer.position
        }
    }

    /// Runs `body` on the UTF-8 of `text` (valid by construction), without copying native strings.
    static func withUTF8<Result>(
        _ text: String, _ body: (UnsafeBufferPointer<UInt8>) throws(ACLParseError) -> Result
    ) throws(ACLParseError) -> Result {
        var text = text
        let result = text.withUTF8 { input in Swift.Result { () throws(ACLParseError) in try body(input) } }
        return try result.get()
    }

    /// Runs `body` on `bytes` after checking that they are UTF-8.
    static func withValidUTF8<Result>(
        _ bytes: [UInt8], _ body: (UnsafeBufferPointer<UInt8>) throws(ACLParseError) -> Result
    ) throws(ACLParseError) -> Result {
        let result = bytes.withUnsafeBufferPointer { input in
            Swift.Result { () throws(ACLParseError) in
                if let bad = firstInvalidUTF8Offset(input) { throw ACLParseError(.invalidUTF8, at: bad, in: input) }
                return try body(input)
            }
        }
        return try result.get()
    }
}
