/// One token of the FIPA string syntax (fipa00070), as byte offsets into the input.
struct ACLToken {
    /// The lexical classes of fipa00070.
    enum Kind: UInt8 {
        case open, close, word, string, number, dateTime, end
    }

    /// The lexical class.
    var kind: Kind
    /// Offset of the token's first byte.
    var start: Int
    /// Offset one past the token's last byte.
    var end: Int
    /// For strings, the offsets of the text between the quotes (or after `#n"`).
    var valueStart: Int
    /// See ``valueStart``.
    var valueEnd: Int
    /// Whether a quoted string holds backslash escapes that must be undone.
    var escaped: Bool

    init(_ kind: Kind, _ start: Int, _ end: Int) {
        self.kind = kind
        self.start = start
        self.end = end
        valueStart = start
        valueEnd = end
        escaped = false
    }
}
