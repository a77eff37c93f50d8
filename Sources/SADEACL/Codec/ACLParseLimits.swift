/// Bounds a parser keeps to so that hostile input cannot use up memory or the stack.
public struct ACLParseLimits: Hashable, Sendable {
    /// The largest message accepted, in bytes of UTF-8 (JSON or string form).
    public var maxMessageBytes: Int
    /// How deeply parentheses may nest; the message's own parentheses count as 1.
    public var maxDepth: Int

    /// Creates limits; the defaults are those of ``default``.
    public init(maxMessageBytes: Int = 1_048_576, maxDepth: Int = 64) {
        self.maxMessageBytes = maxMessageBytes
        self.maxDepth = maxDepth
    }

    /// 1 MiB per message, 64 levels of nesting.
    public static let `default` = ACLParseLimits()
}
