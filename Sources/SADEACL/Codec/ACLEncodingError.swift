/// Why a message cannot be written in a codec's wire format.
public enum ACLEncodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A user-defined parameter whose name does not start with `X-` (or `x-`) or holds
    /// characters a parameter name cannot have (white space, control characters, parentheses).
    case badUserDefinedParameterName(String)
    /// `reply-by` lies outside the years 0000–9999 that a FIPA date-time can express.
    case replyByOutOfRange(milliseconds: Int64)
    /// Anything else the wire format cannot express, said in words.
    case unrepresentable(String)

    /// A sentence saying what to change.
    public var description: String {
        switch self {
        case .badUserDefinedParameterName(let name):
            "user-defined parameter '\(name)' must start with X- and contain no spaces, control characters "
                + "or parentheses"
        case .replyByOutOfRange(let milliseconds):
            "reply-by (\(milliseconds) ms since 1970) is outside the years 0000-9999 of a FIPA date-time"
        case .unrepresentable(let what): what
        }
    }
}
