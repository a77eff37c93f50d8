/// Builds a list from the statements of a block, with `if`, `if/else` and `for`:
/// the builder behind `Plan { … }`, `Goal { … }` and `SequentialBehaviour { … }`.
@resultBuilder
public enum ListBuilder<Element> {
    /// One element.
    public static func buildExpression(_ element: Element) -> [Element] { [element] }
    /// A list of elements.
    public static func buildExpression(_ elements: [Element]) -> [Element] { elements }
    /// The statements of a block.
    public static func buildBlock(_ parts: [Element]...) -> [Element] { parts.flatMap { $0 } }
    /// An `if` without `else`.
    public static func buildOptional(_ part: [Element]?) -> [Element] { part ?? [] }
    /// The first branch of an `if/else`.
    public static func buildEither(first part: [Element]) -> [Element] { part }
    /// The second branch of an `if/else`.
    public static func buildEither(second part: [Element]) -> [Element] { part }
    /// A `for` loop.
    public static func buildArray(_ parts: [[Element]]) -> [Element] { parts.flatMap { $0 } }
}
