/// A test over an agent's beliefs: a plan's context, an action's pre- or
/// post-condition, or the condition of an achieve or maintain goal.
public struct Condition: Sendable, CustomStringConvertible {
    /// What the condition states, for logs and errors.
    public let description: String
    private let test: @Sendable (BeliefBase) -> Bool

    /// Creates a condition from a description and a test over beliefs.
    public init(_ description: String, _ test: @escaping @Sendable (BeliefBase) -> Bool) {
        self.description = description
        self.test = test
    }

    /// Whether the condition holds for `beliefs`.
    public func holds(for beliefs: BeliefBase) -> Bool { test(beliefs) }

    /// Holds when the typed belief `key` currently has `value`.
    public static func belief<Value>(_ key: BeliefKey<Value>, is value: Value) -> Condition {
        Condition("\(key.name) == \(value)") { $0[key] == value }
    }

    /// Holds when the belief called `name` is held, whatever its value.
    public static func believes(_ name: String) -> Condition {
        Condition("believes \(name)") { $0.contains(name) }
    }

    /// Holds when this condition does not.
    public var negated: Condition {
        let test = self.test
        return Condition("not (\(description))") { !test($0) }
    }
}
