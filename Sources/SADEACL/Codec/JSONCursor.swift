/// SADE's one hand-written JSON reader: JSON text in one pass over its UTF-8 bytes,
/// value by value, with no tree in between. The caller asks for what it expects where it
/// expects it (an object's members, an array's elements, a string, a number) and skips
/// what it does not know; errors say what was expected at which byte.
///
/// It reads the pipeline's sample batches and the server's observation bodies (where
/// `JSONDecoder` cost too much under load), splits ACL JSON documents into their
/// top-level values, and finds the FHIR entry holding a number too large for a `Double`.
package struct JSONCursor {
    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0

    /// A cursor at the start of `text`.
    package init(_ text: String) {
        bytes = Array(text.utf8)
    }

    /// A cursor at the start of UTF-8 text.
    package init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// What went wrong, and where.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
        /// Whether the text was valid JSON and a value did not fit (a reader's own
        /// error, thrown out of the cursor's closures), rather than a syntax error.
        package var isAboutAValue = false

        package init(description: String) { self.description = description }

        /// A reader's error about a value, e.g. `body[3].value: should be a number`.
        package init(value description: String) {
            self.description = description
            isAboutAValue = true
        }
    }

    /// The byte the cursor is at: where the next value (or white space) starts.
    package var offset: Int { index }

    /// Documents nest at most this deep.
    static let maxDepth = 64

    /// Fails unless only white space is left.
    package mutating func expectEnd() throws(Failure) {
        skipSpace()
        guard index == bytes.count else { throw failure("the end of the document") }
    }

    /// Calls `member` with each key of the object here, the cursor on its value; the
    /// member must read or skip that value.
    package mutating func object(_ member: (inout JSONCursor, String) throws(Failure) -> Void) throws(Failure) {
        try enter(UInt8(ascii: "{"), "an object")
        if try close(UInt8(ascii: "}")) { return }
        repeat {
            skipSpace()
            let key = try string()
            try expect(UInt8(ascii: ":"), "':'")
            try member(&self, key)
        } while try next(UInt8(ascii: "}"))
    }

    /// Calls `element` for each element of the array here, the cursor on it.
    package mutating func array(_ element: (inout JSONCursor) throws(Failure) -> Void) throws(Failure) {
        try enter(UInt8(ascii: "["), "an array")
        if try close(UInt8(ascii: "]")) { return }
        repeat { try element(&self) } while try next(UInt8(ascii: "]"))
    }

    /// The string here, escapes resolved.
    package mutating func string() throws(Failure) -> String {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure("a string") }
        index += 1
        let start = index
        while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\"), bytes[index] >= 0x20 { index += 1 }
        guard index < bytes.count else { throw failure("the end of the string") }
        if bytes[index] == UInt8(ascii: "\"") {
            defer { index += 1 }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }
        var scalars = String(decoding: bytes[start..<index], as: UTF8.self).unicodeScalars
        var raw: [UInt8] = []
        while true {
            guard index < bytes.count else { throw failure("the end of the string") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { break }
            guard byte >= 0x20 else { throw failure("an escaped control character") }
            if byte != UInt8(ascii: "\\") {
                raw.append(byte)
                index += 1
                continue
            }
            scalars.append(contentsOf: String(decoding: raw, as: UTF8.self).unicodeScalars)
            raw.removeAll(keepingCapacity: true)
            index += 1
            guard index < bytes.count else { throw failure("an escape") }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(Unicode.Scalar(escape))
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "u"):
                var code = try hex4()
                if (0xD800..<0xDC00).contains(code), bytes[index...].starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "u")]) {
                    index += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw failure("a low surrogate") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(code) else { throw failure("a Unicode scalar") }
                scalars.append(scalar)
            default:
                throw failure("a valid escape")
            }
        }
        scalars.append(contentsOf: String(decoding: raw, as: UTF8.self).unicodeScalars)
        index += 1
        return String(scalars)
    }

    /// The number here.
    package mutating func number() throws(Failure) -> Double {
        let start = index
        guard let value = Double(try numberText()), value.isFinite else {
            index = start
            throw failure("a number")
        }
        return value
    }

    /// The number here as written (e.g. `1e400`, which no `Double` holds), by JSON's
    /// grammar: `-`, digits without a leading zero, a fraction, an exponent.
    package mutating func numberText() throws(Failure) -> String {
        skipSpace()
        let start = index
        func digits() -> Bool {
            let first = index
            while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
            return index > first
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        if index < bytes.count, bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if !digits() {
            index = start
            throw failure("a number")
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() else { throw failure("digits after the decimal point") }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() else { throw failure("the exponent's digits") }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// The first byte of the value here (white space skipped), or `nil` at the end.
    package mutating func peek() -> UInt8? {
        skipSpace()
        return index < bytes.count ? bytes[index] : nil
    }

    /// Whether the value here is `null` (read if so).
    package mutating func null() -> Bool {
        skipSpace()
        guard bytes[index...].starts(with: Array("null".utf8)) else { return false }
        index += 4
        return true
    }

    /// Reads past the value here, whatever it is.
    package mutating func skipValue() throws(Failure) {
        skipSpace()
        guard index < bytes.count else { throw failure("a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): try object { cursor, _ throws(Failure) in try cursor.skipValue() }
        case UInt8(ascii: "["): try array { cursor throws(Failure) in try cursor.skipValue() }
        case UInt8(ascii: "\""): _ = try string()
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            for word in ["true", "false", "null"] where bytes[index...].starts(with: Array(word.utf8)) {
                index += word.utf8.count
                return
            }
            throw failure("a value")
        default: _ = try numberText()
        }
    }

    // MARK: Bytes

    private mutating func enter(_ open: UInt8, _ what: String) throws(Failure) {
        skipSpace()
        guard index < bytes.count, bytes[index] == open else { throw failure(what) }
        guard depth < Self.maxDepth else { throw failure("less nesting") }
        depth += 1
        index += 1
    }

    /// Reads `closer` if it comes next (an empty object or array).
    private mutating func close(_ closer: UInt8) throws(Failure) -> Bool {
        skipSpace()
        guard index < bytes.count, bytes[index] == closer else { return false }
        index += 1
        depth -= 1
        return true
    }

    /// After a member or element: `,` (true: another follows) or `closer` (false).
    private mutating func next(_ closer: UInt8) throws(Failure) -> Bool {
        skipSpace()
        guard index < bytes.count else { throw failure("',' or the end of the list") }
        if bytes[index] == UInt8(ascii: ",") {
            index += 1
            return true
        }
        guard bytes[index] == closer else { throw failure("',' or '\(Character(Unicode.Scalar(closer)))'") }
        index += 1
        depth -= 1
        return false
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws(Failure) {
        skipSpace()
        guard index < bytes.count, bytes[index] == byte else { throw failure(what) }
        index += 1
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count else { throw failure("four hexadecimal digits") }
        var value: UInt32 = 0
        for byte in bytes[index..<(index + 4)] {
            guard let digit = Self.hexDigit(byte) else { throw failure("four hexadecimal digits") }
            value = value << 4 | digit
        }
        index += 4
        return value
    }

    private mutating func skipSpace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 { index += 1 }
    }

    private func failure(_ expected: String) -> Failure {
        Failure(description: "expected \(expected) at byte \(index)")
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
