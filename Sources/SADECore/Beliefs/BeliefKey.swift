/// A typed name for a belief, so reading and writing it cannot disagree on its type.
///
/// Declare keys once, next to the agents that use them:
/// ```swift
/// extension BeliefKey where Value == Bool {
///     static let isInFire: BeliefKey<Bool> = "isInFire"
/// }
/// ```
public struct BeliefKey<Value: Hashable & Sendable>: Hashable, Sendable, ExpressibleByStringLiteral {
    /// The belief's name in the agent's ``BeliefBase``.
    public let name: String

    /// Creates a key for the belief called `name`.
    public init(_ name: String) { self.name = name }

    /// Lets `"isInFire"` stand for `BeliefKey("isInFire")`.
    public init(stringLiteral name: String) { self.name = name }
}
