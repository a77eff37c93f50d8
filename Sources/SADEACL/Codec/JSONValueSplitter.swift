/// Finds the top-level JSON objects and arrays in a text that holds several one after
/// the other (JSON Lines, or pretty-printed objects in a row), reading past each with
/// ``JSONCursor`` without building it.
enum JSONValueSplitter {
    /// One top-level value: its bytes and the line it starts on.
    struct Value {
        var range: Range<Int>
        var line: Int
    }

    /// The top-level values of `bytes`, in order. A value that is not JSON (or nests
    /// deeper than ``JSONCursor``'s limit) is an error naming the line it starts on.
    static func split(_ bytes: [UInt8]) throws(ACLJSONCodec.DecodingFailure) -> [Value] {
        var values: [Value] = []
        var cursor = JSONCursor(bytes: bytes)
        var lines = 1
        var counted = 0
        /// The line of the byte at `offset` (offsets asked in increasing order).
        func line(at offset: Int) -> Int {
            lines += bytes[counted..<offset].count { $0 == UInt8(ascii: "\n") }
            counted = offset
            return lines
        }
        while let byte = cursor.peek() {
            let start = cursor.offset
            guard byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") else {
                let shown = byte >= 0x21 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte \(byte)"
                throw .init(path: "", reason: "expected a JSON object or array but found \(shown)", line: line(at: start))
            }
            let startLine = line(at: start)
            do {
                try cursor.skipValue()
            } catch {
                throw .init(path: "", reason: "not valid JSON: \(error)", line: startLine)
            }
            values.append(Value(range: start..<cursor.offset, line: startLine))
        }
        return values
    }
}
