/// Finds the top-level JSON objects and arrays in a text that holds several one after
/// the other (JSON Lines, or pretty-printed objects in a row), without parsing them.
enum JSONValueSplitter {
    /// One top-level value: its bytes and the line it starts on.
    struct Value {
        var range: Range<Int>
        var line: Int
    }

    /// The top-level values of `bytes`, in order. An unbalanced last value runs to the end
    /// (the JSON decoder then says what is wrong with it).
    static func split(_ bytes: [UInt8]) throws(ACLJSONCodec.DecodingFailure) -> [Value] {
        var values: [Value] = []
        var index = 0
        var line = 1
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") { line += 1 }
            if ACLSyntax.isWhitespace(byte) {
                index += 1
                continue
            }
            guard byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") else {
                let shown = byte >= 0x21 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte \(byte)"
                throw .init(path: "", reason: "expected a JSON object or array but found \(shown)", line: line)
            }
            let start = index
            let startLine = line
            var depth = 0
            var inString = false
            scan: while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if byte == UInt8(ascii: "\n") { line += 1 }
                if inString {
                    if byte == UInt8(ascii: "\\") {
                        index += 1
                    } else if byte == UInt8(ascii: "\"") {
                        inString = false
                    }
                    continue
                }
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { break scan }
                default: break
                }
            }
            values.append(Value(range: start..<min(index, bytes.count), line: startLine))
        }
        return values
    }
}
