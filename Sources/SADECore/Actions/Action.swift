/// One step of a plan (SADE4Health's `Action` hot spot).
///
/// Conform a type of your own for actions with state or dependencies, or use
/// ``OneShotAction`` and ``CyclicAction`` with a closure. Actions run in their
/// intention's task, off the agent's mailbox: a slow action never delays messages.
public protocol Action: Sendable {
    /// The action's name, for logs and events.
    var name: String { get }
    /// Whether the action runs once or repeatedly.
    var schedule: ActionSchedule { get }
    /// Must hold before a run; a one-shot action whose precondition fails fails its
    /// plan, a cyclic action skips the tick.
    var precondition: Condition? { get }
    /// Must hold after a run, or the action fails its plan.
    var postcondition: Condition? { get }
    /// Does the action's work. Throwing fails the plan; the goal tries its next plan.
    func runAction(_ context: ActionContext) async throws
}

extension Action {
    /// By default an action is named after its type.
    public var name: String { String(describing: Self.self) }
    /// By default an action runs once.
    public var schedule: ActionSchedule { .once }
    /// By default there is no precondition.
    public var precondition: Condition? { nil }
    /// By default there is no postcondition.
    public var postcondition: Condition? { nil }
}

/// When an action runs.
public enum ActionSchedule: Hashable, Sendable {
    /// Once (a one-shot action).
    case once
    /// Every `interval`, first after one interval, until it calls
    /// ``ActionContext/stopRepeating()`` or its intention ends (a cyclic action).
    case every(Duration)
}

/// Why an action did not complete.
public enum ActionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The action's precondition did not hold before it ran.
    case preconditionFailed(action: String, condition: String)
    /// The action's postcondition did not hold after it ran.
    case postconditionFailed(action: String, condition: String)

    /// A sentence saying what went wrong.
    public var description: String {
        switch self {
        case .preconditionFailed(let action, let condition):
            "precondition of action '\(action)' does not hold: \(condition)"
        case .postconditionFailed(let action, let condition):
            "postcondition of action '\(action)' does not hold: \(condition)"
        }
    }
}
