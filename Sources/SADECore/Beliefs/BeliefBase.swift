/// An agent's knowledge base: typed values under names, kept in the order they
/// were first believed (the default belief revision walks them in that order).
///
/// A belief may be given a validity: a perception that goes stale is dropped by the
/// next belief revision after it expires.
public struct BeliefBase: Sendable, Equatable {
    /// One entry: a belief's name, value and, optionally, when it stops being valid.
    public struct Entry: Sendable, Equatable {
        /// The belief's name.
        public let name: String
        /// The believed value.
        public var value: any Hashable & Sendable
        /// Platform time (``PlatformClock/elapsed``) after which the belief is stale.
        public var expiresAt: Duration?

        /// Beliefs are equal when name, value and expiry are.
        public static func == (lhs: Entry, rhs: Entry) -> Bool {
            lhs.name == rhs.name && AnyHashable(lhs.value) == AnyHashable(rhs.value) && lhs.expiresAt == rhs.expiresAt
        }
    }

    private var order: [String] = []
    private var entries: [String: Entry] = [:]
    /// How many beliefs have an expiry, so that belief revision, which runs in every
    /// reasoning cycle, skips walking the beliefs when none can go stale.
    private(set) var expiringCount = 0

    /// Creates an empty belief base.
    public init() {}

    /// The beliefs in the order they were first believed.
    public var all: [Entry] { order.compactMap { entries[$0] } }

    /// The names of all beliefs, in order.
    public var names: [String] { order }

    /// The number of beliefs.
    public var count: Int { order.count }

    /// Whether a belief called `name` is held.
    public func contains(_ name: String) -> Bool { entries[name] != nil }

    /// The belief called `name`, if held.
    public func belief(named name: String) -> Entry? { entries[name] }

    /// The value of a typed belief, or `nil` if it is not held or has another type.
    public subscript<Value>(key: BeliefKey<Value>) -> Value? {
        entries[key.name]?.value as? Value
    }

    /// The value of the belief called `name`, whatever its type.
    public subscript(name: String) -> (any Hashable & Sendable)? {
        entries[name]?.value
    }

    /// Believes `value` under `name`; returns whether anything changed.
    @discardableResult
    public mutating func set(_ name: String, to value: any Hashable & Sendable, expiresAt: Duration? = nil) -> Bool {
        let new = Entry(name: name, value: value, expiresAt: expiresAt)
        guard let old = entries.updateValue(new, forKey: name) else {
            order.append(name)
            if expiresAt != nil { expiringCount += 1 }
            return true
        }
        expiringCount += (expiresAt == nil ? 0 : 1) - (old.expiresAt == nil ? 0 : 1)
        return old != new
    }

    /// Believes `value` under a typed key; returns whether anything changed.
    @discardableResult
    public mutating func set<Value>(_ key: BeliefKey<Value>, to value: Value, expiresAt: Duration? = nil) -> Bool {
        set(key.name, to: value, expiresAt: expiresAt)
    }

    /// Stops believing `name`; returns whether it was held.
    @discardableResult
    public mutating func remove(_ name: String) -> Bool {
        guard let old = entries.removeValue(forKey: name) else { return false }
        if old.expiresAt != nil { expiringCount -= 1 }
        order.removeAll { $0 == name }
        return true
    }

    /// Beliefs are equal when they hold the same beliefs in the same order.
    public static func == (lhs: BeliefBase, rhs: BeliefBase) -> Bool {
        lhs.order == rhs.order && lhs.entries == rhs.entries
    }
}

extension BeliefBase: ExpressibleByDictionaryLiteral {
    /// Builds a belief base from `["isInFire": false, …]`, in literal order.
    public init(dictionaryLiteral elements: (String, any Hashable & Sendable)...) {
        self.init()
        for (name, value) in elements { set(name, to: value) }
    }
}
