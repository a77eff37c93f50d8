/// Runs its children one after the other (JADE's `SequentialBehaviour`).
public struct SequentialBehaviour: Behaviour {
    /// The behaviour's name.
    public let name: String
    /// The children, in order.
    public let children: [any Behaviour]

    /// Creates a sequence of behaviours.
    public init(_ name: String = "sequence", @ListBuilder<any Behaviour> _ children: () -> [any Behaviour]) {
        self.name = name
        self.children = children()
    }

    /// Runs each child to completion in turn; a throwing child ends the sequence.
    public func action(_ context: ActionContext) async throws {
        for child in children {
            try Task.checkCancellation()
            try await child.action(context.child())
        }
    }
}

/// Runs its children concurrently (JADE's `ParallelBehaviour`) until all of them, or
/// the first of them, finished.
public struct ParallelBehaviour: Behaviour {
    /// When a parallel behaviour is finished.
    public enum Completion: Sendable {
        /// When every child has finished.
        case all
        /// When any child has finished; the others are cancelled.
        case any
    }

    /// The behaviour's name.
    public let name: String
    /// When the behaviour is finished.
    public let completion: Completion
    /// The children, run concurrently.
    public let children: [any Behaviour]

    /// Creates a parallel behaviour.
    public init(
        _ name: String = "parallel", finishWhen completion: Completion = .all,
        @ListBuilder<any Behaviour> _ children: () -> [any Behaviour]
    ) {
        self.name = name
        self.completion = completion
        self.children = children()
    }

    /// Runs the children concurrently; a throwing child cancels the others.
    public func action(_ context: ActionContext) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for child in children {
                group.addTask { try await child.action(context.child()) }
            }
            switch completion {
            case .all:
                try await group.waitForAll()
            case .any:
                if try await group.next() != nil { group.cancelAll() }
            }
        }
    }
}

/// A finite-state machine of behaviours (JADE's `FSMBehaviour`): each state is a
/// behaviour that returns an event name; transitions map (state, event) to the next
/// state. The machine finishes when it reaches a final state.
public struct FSMBehaviour: Behaviour {
    /// One state of the machine.
    public struct State: Sendable {
        /// The state's name.
        public let name: String
        /// Runs the state and returns the event that decides the transition.
        public let run: @Sendable (ActionContext) async throws -> String
        /// Whether reaching this state, after running it, ends the machine.
        public let isFinal: Bool

        /// Creates a state.
        public init(_ name: String, isFinal: Bool = false, _ run: @escaping @Sendable (ActionContext) async throws -> String) {
            self.name = name
            self.isFinal = isFinal
            self.run = run
        }
    }

    /// Why the machine could not go on.
    public enum FSMError: Error, Hashable, Sendable, CustomStringConvertible {
        /// No state has this name.
        case unknownState(String)
        /// No transition leaves `state` on `event`.
        case noTransition(state: String, event: String)

        /// A sentence saying what went wrong.
        public var description: String {
            switch self {
            case .unknownState(let state): "the state machine has no state named '\(state)'"
            case .noTransition(let state, let event): "no transition leaves state '\(state)' on event '\(event)'"
            }
        }
    }

    /// The behaviour's name.
    public let name: String
    /// The state the machine starts in.
    public let initialState: String
    /// The states, by name.
    public let states: [String: State]
    /// `transitions[state][event]` is the next state.
    public let transitions: [String: [String: String]]

    /// Creates a machine from its states and transitions.
    public init(_ name: String = "fsm", initial: String, states: [State], transitions: [String: [String: String]]) {
        self.name = name
        self.initialState = initial
        self.states = Dictionary(states.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.transitions = transitions
    }

    /// Runs states and follows transitions until a final state has run.
    public func action(_ context: ActionContext) async throws {
        var current = initialState
        while true {
            try Task.checkCancellation()
            guard let state = states[current] else { throw FSMError.unknownState(current) }
            let event = try await state.run(context.child())
            if state.isFinal { return }
            guard let next = transitions[current]?[event] else {
                throw FSMError.noTransition(state: current, event: event)
            }
            current = next
        }
    }
}
