/// A piece of an agent's definition that can be listed in the builder block of
/// ``Agent/init(_:on:strategies:runBDICycleOnStart:_:)``: a ``Belief``, a ``Goal``,
/// a ``MessageHandler``, a ``ServiceDescription`` or any ``Behaviour``.
public protocol AgentPart: Sendable {
    /// Adds this part to the definition.
    func contribute(to definition: inout AgentDefinition)
}

/// Everything an agent is made of, collected from a builder block.
public struct AgentDefinition: Sendable {
    /// Initial beliefs.
    public var beliefs = BeliefBase()
    /// Goals with their plans.
    public var goals: [Goal] = []
    /// Behaviours started with the agent.
    public var behaviours: [any Behaviour] = []
    /// Message handlers, in order.
    public var handlers: [MessageHandler] = []
    /// Services published in the yellow pages.
    public var services: [ServiceDescription] = []
}

/// An initial belief in an agent's builder block: `Belief(.isInFire, false)`.
public struct Belief: AgentPart {
    /// The belief's name.
    public let name: String
    /// The initial value.
    public let value: any Hashable & Sendable

    /// Declares the typed belief `key` with an initial value.
    public init<Value>(_ key: BeliefKey<Value>, _ value: Value) {
        self.name = key.name
        self.value = value
    }

    /// Adds the belief.
    public func contribute(to definition: inout AgentDefinition) {
        definition.beliefs.set(name, to: value)
    }
}

extension Goal: AgentPart {
    /// Adds the goal.
    public func contribute(to definition: inout AgentDefinition) { definition.goals.append(self) }
}

extension MessageHandler: AgentPart {
    /// Adds the handler.
    public func contribute(to definition: inout AgentDefinition) { definition.handlers.append(self) }
}

extension ServiceDescription: AgentPart {
    /// Adds the service.
    public func contribute(to definition: inout AgentDefinition) { definition.services.append(self) }
}

private struct BehaviourPart: AgentPart {
    let behaviour: any Behaviour
    func contribute(to definition: inout AgentDefinition) { definition.behaviours.append(behaviour) }
}

/// Collects the parts of an agent listed in a block.
@resultBuilder
public enum AgentBuilder {
    /// A belief, goal, handler or service.
    public static func buildExpression(_ part: some AgentPart) -> [any AgentPart] { [part] }
    /// A behaviour.
    public static func buildExpression(_ behaviour: some Behaviour) -> [any AgentPart] { [BehaviourPart(behaviour: behaviour)] }
    /// The statements of a block.
    public static func buildBlock(_ parts: [any AgentPart]...) -> [any AgentPart] { parts.flatMap { $0 } }
    /// An `if` without `else`.
    public static func buildOptional(_ parts: [any AgentPart]?) -> [any AgentPart] { parts ?? [] }
    /// The first branch of an `if/else`.
    public static func buildEither(first parts: [any AgentPart]) -> [any AgentPart] { parts }
    /// The second branch of an `if/else`.
    public static func buildEither(second parts: [any AgentPart]) -> [any AgentPart] { parts }
    /// A `for` loop.
    public static func buildArray(_ parts: [[any AgentPart]]) -> [any AgentPart] { parts.flatMap { $0 } }
}

extension Agent {
    /// Creates an agent from a builder block listing its beliefs, goals, message
    /// handlers, services and behaviours:
    ///
    /// ```swift
    /// let fireman = Agent("Fireman", on: platform) {
    ///     Belief(.isInFire, false)
    ///     Goal.maintain("no fire", .belief(.isInFire, is: false)) {
    ///         Plan { ExtinguishFire() }
    ///     }
    ///     MessageHandler.on(.inform) { agent, _ in agent.setBelief(.isInFire, to: true) }
    /// }
    /// ```
    public init(
        _ name: String,
        on environment: Environment,
        strategies: ReasoningStrategies = .default,
        runBDICycleOnStart: Bool = false,
        @AgentBuilder _ parts: () -> [any AgentPart]
    ) {
        var definition = AgentDefinition()
        for part in parts() { part.contribute(to: &definition) }
        self.init(
            name: name, environment: environment, beliefs: definition.beliefs, goals: definition.goals,
            strategies: strategies, runBDICycleOnStart: runBDICycleOnStart, behaviours: definition.behaviours,
            handlers: definition.handlers, services: definition.services)
    }
}
