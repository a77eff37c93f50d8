/// Why a text is not a valid ACL message or expression, and where: 1-based line and
/// column (counted in Unicode scalars) plus the byte offset from the start of the input.
///
/// Its description reads like `line 3, column 14: expected ')' but found end of input`.
public struct ACLParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Hashable, Sendable {
        /// The input ended where something else (`expected`) had to come.
        case unexpectedEndOfInput(expected: String)
        /// A character that cannot start or continue any token here.
        case unexpectedCharacter(String, expected: String)
        /// A well-formed token (`found`, described for a reader) in the wrong place.
        case unexpectedToken(found: String, expected: String)
        /// The message type is not one of the 22 FIPA performatives.
        case unknownPerformative(String)
        /// A message parameter that is neither a FIPA parameter nor user-defined (`:X-…`).
        case unknownParameter(String)
        /// A parameter of `agent-identifier` other than `:name`, `:addresses`, `:resolvers`.
        case unknownAgentIdentifierParameter(String)
        /// The same parameter twice in one message or agent identifier.
        case duplicateParameter(String)
        /// A parameter name with no value after it.
        case missingValue(parameter: String)
        /// A mandatory parameter (`parameter`) left out of an expression (`of`).
        case missingParameter(String, of: String)
        /// A backslash escape other than `\"`, `\\`, `\n`, `\t` or `\r` in a quoted string.
        case badStringEscape(String)
        /// A quoted string without its closing quote.
        case unterminatedString
        /// A `#n"…` string whose length is malformed or longer than the input.
        case badByteLengthString(String)
        /// A date-time that is malformed or names an impossible instant.
        case badDateTime(String)
        /// A number that is malformed.
        case badNumber(String)
        /// The input (of `size` bytes), or one message in it (`size` unknown), is larger
        /// than ``ACLParseLimits/maxMessageBytes``.
        case tooLarge(size: Int?, limit: Int)
        /// Parentheses nest deeper than ``ACLParseLimits/maxDepth``.
        case tooDeep(limit: Int)
        /// The bytes are not valid UTF-8.
        case invalidUTF8
    }

    /// What went wrong.
    public var kind: Kind
    /// The line of the problem, from 1.
    public var line: Int
    /// The column of the problem on its line, from 1, in Unicode scalars.
    public var column: Int
    /// The byte offset of the problem from the start of the input, from 0.
    public var offset: Int

    /// Creates an error at a known position.
    public init(_ kind: Kind, line: Int, column: Int, offset: Int) {
        self.kind = kind
        self.line = line
        self.column = column
        self.offset = offset
    }

    /// Creates an error at byte `offset` of `input`, working out its line and column.
    init(_ kind: Kind, at offset: Int, in input: UnsafeBufferPointer<UInt8>) {
        var line = 1, column = 1
        for byte in input[..<min(offset, input.count)] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {  // not a UTF-8 continuation byte
                column += 1
            }
        }
        self.init(kind, line: line, column: column, offset: offset)
    }

    /// What went wrong, without the position: `expected ')' but found end of input`.
    public var reason: String {
        switch kind {
        case .unexpectedEndOfInput(let expected): "expected \(expected) but found end of input"
        case .unexpectedCharacter(let found, let expected): "expected \(expected) but found \(found)"
        case .unexpectedToken(let found, let expected): "expected \(expected) but found \(found)"
        case .unknownPerformative(let name):
            "unknown performative '\(name)'; expected one of the 22 FIPA acts such as inform or request"
        case .unknownParameter(let name):
            "unknown message parameter '\(name)'; user-defined parameters start with :X-"
        case .unknownAgentIdentifierParameter(let name):
            "unknown agent-identifier parameter '\(name)'; expected :name, :addresses or :resolvers"
        case .duplicateParameter(let name): "parameter '\(name)' appears twice"
        case .missingValue(let name): "parameter '\(name)' has no value"
        case .missingParameter(let name, let of): "\(of) has no \(name)"
        case .badStringEscape(let escape):
            "unknown escape '\(escape)' in string; use \\\" \\\\ \\n \\t or \\r"
        case .unterminatedString: "string is never closed with '\"'"
        case .badByteLengthString(let why): "bad byte-length string: \(why)"
        case .badDateTime(let why): "bad date-time: \(why)"
        case .badNumber(let text): "bad number '\(text)'"
        case .tooLarge(let size?, let limit): "input is \(size) bytes, more than the limit of \(limit)"
        case .tooLarge(nil, let limit): "message is longer than the limit of \(limit) bytes"
        case .tooDeep(let limit): "parentheses nest deeper than the limit of \(limit)"
        case .invalidUTF8: "invalid UTF-8"
        }
    }

    /// `line L, column C: reason`.
    public var description: String { "line \(line), column \(column): \(reason)" }
}
