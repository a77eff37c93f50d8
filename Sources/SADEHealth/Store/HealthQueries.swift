import Foundation

/// Which samples to read (HealthKit's `HKSampleQuery` with its predicate).
public struct SampleQuery: Hashable, Sendable {
    /// How results are ordered.
    public enum Order: Hashable, Sendable {
        case oldestFirst, newestFirst
    }

    /// The type; for a correlation type the correlations, for a member type (e.g.
    /// systolic) the member samples, correlated or not.
    public var type: HealthType
    /// Whose samples; `nil` means every patient the principal may read.
    public var patient: PatientID?
    /// Samples starting at or after this time.
    public var from: Date?
    /// Samples starting before this time.
    public var until: Date?
    /// At most this many.
    public var limit: Int?
    /// The order, by start time.
    public var order: Order

    /// Creates a query.
    public init(_ type: HealthType, patient: PatientID? = nil, from: Date? = nil, until: Date? = nil, limit: Int? = nil, order: Order = .oldestFirst) {
        self.type = type
        self.patient = patient
        self.from = from
        self.until = until
        self.limit = limit
        self.order = order
    }
}

/// A position in a store's history of changes (HealthKit's `HKQueryAnchor`).
public struct HealthAnchor: Hashable, Comparable, Sendable, Codable {
    /// The change counter; 0 is before everything.
    public let rawValue: Int64

    /// Wraps a counter.
    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// Before the first change.
    public static let start = HealthAnchor(rawValue: 0)

    public static func < (lhs: HealthAnchor, rhs: HealthAnchor) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// What changed since an anchor (HealthKit's `HKAnchoredObjectQuery` result).
public struct AnchoredChanges: Hashable, Sendable {
    /// Samples added since the anchor, oldest change first.
    public var added: [HealthSample]
    /// Identifiers of samples deleted since the anchor.
    public var deleted: [UUID]
    /// Pass this to the next anchored query to get only what comes after.
    public var anchor: HealthAnchor

    /// Creates a result.
    public init(added: [HealthSample], deleted: [UUID], anchor: HealthAnchor) {
        self.added = added
        self.deleted = deleted
        self.anchor = anchor
    }
}

/// Aggregates of a quantity type over an interval (HealthKit's `HKStatistics`):
/// discrete types have minimum, maximum, average and most recent; cumulative types a sum.
public struct HealthStatistics: Hashable, Sendable {
    /// The interval.
    public var start: Date
    public var end: Date
    /// How many samples fell in it.
    public var count: Int
    /// Discrete types only.
    public var minimum: HealthQuantity?
    public var maximum: HealthQuantity?
    public var average: HealthQuantity?
    public var mostRecent: HealthQuantity?
    /// Cumulative types only.
    public var sum: HealthQuantity?

    /// Creates statistics.
    public init(
        start: Date, end: Date, count: Int, minimum: HealthQuantity? = nil, maximum: HealthQuantity? = nil,
        average: HealthQuantity? = nil, mostRecent: HealthQuantity? = nil, sum: HealthQuantity? = nil
    ) {
        self.start = start
        self.end = end
        self.count = count
        self.minimum = minimum
        self.maximum = maximum
        self.average = average
        self.mostRecent = mostRecent
        self.sum = sum
    }
}
