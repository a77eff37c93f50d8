/// A closure to keep behind a lock, such as a hub's relay: `Mutex<Callback<Event>?>`.
///
/// A bare closure kept in a `Mutex` and read with `withLock { $0 }` is written back
/// wrapped in two more reabstraction thunks at every read (the lock's value is passed
/// `inout` at the generic type's abstraction): a hub calling its relay for every event
/// spent longer on each call than the last, and would have run out of stack in the end.
/// Wrapped in this struct, the closure is moved as it is.
public struct Callback<Argument>: Sendable {
    private let body: @Sendable (Argument) -> Void

    /// Wraps `body`.
    public init(_ body: @escaping @Sendable (Argument) -> Void) {
        self.body = body
    }

    /// Calls the closure with `argument`.
    public func callAsFunction(_ argument: Argument) {
        body(argument)
    }
}

extension Callback where Argument == Void {
    /// Calls the closure.
    public func callAsFunction() {
        body(())
    }
}
