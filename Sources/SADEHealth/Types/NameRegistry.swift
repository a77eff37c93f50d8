import Synchronization

/// Values known by name, for the hot spots an app extends (quantity types, units,
/// roles, their vital signs and FHIR codes): SADE's own are fixed and read without a
/// lock — the samples' hot path only ever asks for those —; an app's are added under one.
final class NameRegistry<Value: Sendable>: Sendable {
    private let builtIn: [String: Value]
    private let builtInValues: [Value]
    private let added = Mutex<(byName: [String: Value], values: [Value])>(([:], []))

    /// SADE's values, each under its names (its own first, then aliases).
    init(_ values: [(value: Value, names: [String])]) {
        builtInValues = values.map(\.value)
        var byName: [String: Value] = [:]
        for (value, names) in values {
            for name in names { byName[name] = value }
        }
        builtIn = byName
    }

    /// SADE's values, each under one name.
    convenience init(_ values: [Value], name: (Value) -> String) {
        self.init(values.map { (value: $0, names: [name($0)]) })
    }

    /// The value named `name`, SADE's or an app's.
    subscript(name: String) -> Value? {
        builtIn[name] ?? added.withLock { $0.byName[name] }
    }

    /// SADE's values, then the app's in the order added.
    var all: [Value] { builtInValues + added.withLock { $0.values } }

    /// The first value, SADE's before an app's, that satisfies `predicate`.
    func first(where predicate: (Value) -> Bool) -> Value? {
        builtInValues.first(where: predicate) ?? added.withLock { $0.values.first(where: predicate) }
    }

    /// Adds `value` under `names` (its own first): a name already taken must name a value
    /// `isSame` accepts, else `conflict(name)` is thrown and nothing changes. Returns the
    /// value known by the first name — the one added, or the same one there before.
    func add(
        _ value: Value, names: [String], isSame: (Value, Value) -> Bool, conflict: (String) -> HealthError
    ) throws(HealthError) -> Value {
        try added.withLock { (added) throws(HealthError) -> Value in
            for name in names {
                if let known = builtIn[name] ?? added.byName[name], !isSame(known, value) { throw conflict(name) }
            }
            if let known = builtIn[names[0]] ?? added.byName[names[0]] {
                for name in names where builtIn[name] == nil { added.byName[name] = known }  // new aliases
                return known
            }
            for name in names { added.byName[name] = value }
            added.values.append(value)
            return value
        }
    }
}
