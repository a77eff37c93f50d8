/// Writes the FIPA string syntax into a byte buffer: the printing half of ``ACLLexer``.
///
/// A value is written as a bare word when ``ACLSyntax/isBareWord(_:)`` allows it and as a
/// quoted string otherwise; quoted strings escape only `"` (as `\"`) and `\` (as `\\`),
/// like JADE, so line breaks and every other character stand for themselves.
struct ACLWriter {
    /// What has been written so far: UTF-8.
    var bytes: [UInt8] = []

    init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    /// Appends ASCII punctuation or a keyword.
    @inline(__always) mutating func append(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends `text` as it is, with no quoting.
    mutating func appendRaw(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Appends `text` as a bare word if it is one, else quoted.
    mutating func appendValue(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            if ACLSyntax.isBareWord(utf8) {
                bytes.append(contentsOf: utf8)
            } else {
                appendQuoted(utf8)
            }
        }
    }

    /// Appends `text` as a quoted string.
    mutating func appendQuoted(_ text: String) {
        var text = text
        text.withUTF8 { appendQuoted($0) }
    }

    private mutating func appendQuoted(_ utf8: UnsafeBufferPointer<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        var runStart = 0
        for index in utf8.indices {
            let byte = utf8[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                bytes.append(UInt8(ascii: "\\"))
                runStart = index  // the quote or backslash itself starts the next run
            }
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends `(agent-identifier :name n [:addresses (sequence …)] [:resolvers (sequence …)])`.
    mutating func appendAgent(_ agent: AgentIdentifier) {
        append("(agent-identifier :name ")
        appendValue(agent.name)
        if !agent.addresses.isEmpty {
            append(" :addresses (sequence")
            for address in agent.addresses {
                bytes.append(UInt8(ascii: " "))
                appendValue(address)
            }
            bytes.append(UInt8(ascii: ")"))
        }
        if !agent.resolvers.isEmpty {
            append(" :resolvers (sequence")
            for resolver in agent.resolvers {
                bytes.append(UInt8(ascii: " "))
                appendAgent(resolver)
            }
            bytes.append(UInt8(ascii: ")"))
        }
        bytes.append(UInt8(ascii: ")"))
    }
}
