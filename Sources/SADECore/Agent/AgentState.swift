/// Where an agent is in its life cycle (the FIPA agent life cycle, fipa00023).
public enum AgentState: String, Hashable, Sendable, Codable {
    /// Created, not yet started: not in the white pages, receives nothing.
    case initiated
    /// Started and registered: receives messages, reasons and acts.
    case active
    /// Registered, but holds its messages and runs nothing until resumed.
    case suspended
    /// Stopped for good and deregistered.
    case stopped
}

/// Why an agent operation was refused.
public enum AgentError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Another agent on the platform already has this name (or it is reserved).
    case nameTaken(String)
    /// The name is empty or contains `@` or whitespace.
    case invalidName(String)
    /// Two goals of one agent have the same name.
    case duplicateGoal(String)
    /// The agent has no goal with this name.
    case unknownGoal(String)
    /// The operation is not possible in the agent's current state.
    case invalidTransition(operation: String, state: AgentState)

    /// A sentence saying what went wrong.
    public var description: String {
        switch self {
        case .nameTaken(let name): "an agent named '\(name)' already exists on this platform"
        case .invalidName(let name): "'\(name)' is not a valid agent name: use a non-empty name without '@' or spaces"
        case .duplicateGoal(let name): "the agent already has a goal named '\(name)'"
        case .unknownGoal(let name): "the agent has no goal named '\(name)'"
        case .invalidTransition(let operation, let state): "cannot \(operation) an agent that is \(state.rawValue)"
        }
    }
}
