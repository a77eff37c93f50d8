/// Something the agent desires, and the plans that can bring it about
/// (SADE4Health's `Goal`: the desires of the BDI cycle).
///
/// The status moves `waiting → executing → achieved | failed`, and to `suspended`
/// while the goal or its agent is suspended. What "achieved" means depends on the
/// ``Kind``.
public struct Goal: Sendable {
    /// How a goal is pursued.
    public enum Kind: Sendable {
        /// Run the plans once; the goal is achieved when a plan succeeds.
        case perform
        /// Pursue until the condition holds; achieved as soon as it does, failed
        /// when every plan was tried and it still does not.
        case achieve(Condition)
        /// Keep the condition true: whenever it stops holding the goal is adopted
        /// again (`waiting`) and its plans run to restore it.
        case maintain(Condition)
    }

    /// The goal's name, unique within its agent.
    public let name: String
    /// How the goal is pursued.
    public let kind: Kind
    /// The plans that can achieve the goal.
    public var plans: [Plan]
    /// Where the goal is in its life.
    public var status: GoalStatus = .waiting
    /// Whether an intention (a running task trying the plans) currently pursues it.
    public internal(set) var isIntended = false
    /// Whether the goal's condition held at the last reasoning cycle.
    var conditionHeld: Bool?
    /// Whether the condition held at some cycle since the goal was last adopted.
    var conditionHeldDuringIntention = false

    /// Creates a goal of the given kind with its plans.
    public init(_ name: String, kind: Kind = .perform, plans: [Plan]) {
        self.name = name
        self.kind = kind
        self.plans = plans
    }

    /// Creates a goal whose plans are listed in a builder block.
    public init(_ name: String, kind: Kind = .perform, @ListBuilder<Plan> plans: () -> [Plan]) {
        self.init(name, kind: kind, plans: plans())
    }

    /// A goal pursued until `condition` holds.
    public static func achieve(_ name: String, until condition: Condition, @ListBuilder<Plan> plans: () -> [Plan]) -> Goal {
        Goal(name, kind: .achieve(condition), plans: plans())
    }

    /// A goal that keeps `condition` true.
    public static func maintain(_ name: String, _ condition: Condition, @ListBuilder<Plan> plans: () -> [Plan]) -> Goal {
        Goal(name, kind: .maintain(condition), plans: plans())
    }

    /// The condition of an achieve or maintain goal.
    public var condition: Condition? {
        switch kind {
        case .perform: nil
        case .achieve(let condition), .maintain(let condition): condition
        }
    }

    /// Puts the goal back to `waiting` with all plans reset, ready to be pursued again.
    public mutating func readopt() {
        status = .waiting
        conditionHeldDuringIntention = false
        for index in plans.indices { plans[index].status = .waiting }
    }
}

/// The status of a goal.
public enum GoalStatus: String, Hashable, Sendable, Codable {
    /// Adopted, not yet being pursued.
    case waiting
    /// An intention is pursuing it.
    case executing
    /// Achieved (for a maintain goal: its condition holds again).
    case achieved
    /// Every applicable plan failed.
    case failed
    /// Put aside until resumed.
    case suspended
}
