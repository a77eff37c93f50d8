import Foundation

/// When a resident counts as inactive: no activity for a continuous period (telecare
/// units use 12 hours), or none inside a time window of the day (no activity between
/// 07:00 and 10:00 means a morning gone wrong).
public struct InactivityRules: Hashable, Sendable, Codable {
    /// The longest time without any activity before an alarm; `nil` turns the rule off.
    public var continuousPeriod: Duration?
    /// Windows of the day that must see some activity.
    public var windows: [ActivityWindow]

    /// Rules: 12 hours by default, no windows.
    public init(continuousPeriod: Duration? = .seconds(12 * 3600), windows: [ActivityWindow] = []) {
        self.continuousPeriod = continuousPeriod
        self.windows = windows
    }

    enum CodingKeys: String, CodingKey { case continuousPeriodSeconds, windows }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        continuousPeriod = try container.decodeIfPresent(Double.self, forKey: .continuousPeriodSeconds).map { .milliseconds(Int64($0 * 1000)) }
        windows = try container.decodeIfPresent([ActivityWindow].self, forKey: .windows) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(continuousPeriod.map(\.seconds), forKey: .continuousPeriodSeconds)
        try container.encode(windows, forKey: .windows)
    }
}

/// A time window of the day, in the flat's local time, e.g. 07:00–10:00.
public struct ActivityWindow: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Minutes after midnight when it opens.
    public var startMinute: Int
    /// Minutes after midnight when it closes (after ``startMinute``).
    public var endMinute: Int

    /// A window from `start` to `end`, as `"07:00"` and `"10:00"`.
    public init?(start: String, end: String) {
        guard let startMinute = Self.minutes(start), let endMinute = Self.minutes(end), startMinute < endMinute else { return nil }
        self.startMinute = startMinute
        self.endMinute = endMinute
    }

    /// A window from minute `startMinute` to `endMinute` of the day.
    public init(startMinute: Int, endMinute: Int) {
        self.startMinute = startMinute
        self.endMinute = endMinute
    }

    /// `07:00–10:00`.
    public var description: String { "\(Self.clock(startMinute))–\(Self.clock(endMinute))" }

    /// The window's start and end on the day of `date`, in `calendar`.
    public func interval(onDayOf date: Date, in calendar: Calendar) -> DateInterval {
        let midnight = calendar.startOfDay(for: date)
        let start = calendar.date(byAdding: .minute, value: startMinute, to: midnight) ?? midnight
        let end = calendar.date(byAdding: .minute, value: endMinute, to: midnight) ?? midnight
        return DateInterval(start: start, end: end)
    }

    enum CodingKeys: String, CodingKey { case start, end }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let start = try container.decode(String.self, forKey: .start), end = try container.decode(String.self, forKey: .end)
        guard let window = ActivityWindow(start: start, end: end) else {
            throw DecodingError.dataCorruptedError(
                forKey: .end, in: container, debugDescription: "a window is two times HH:MM, the first before the second; got \(start)–\(end)")
        }
        self = window
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.clock(startMinute), forKey: .start)
        try container.encode(Self.clock(endMinute), forKey: .end)
    }

    static func minutes(_ text: String) -> Int? {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let hours = Int(parts[0]), let minutes = Int(parts[1]), (0...24).contains(hours), (0..<60).contains(minutes),
            hours * 60 + minutes <= 24 * 60
        else { return nil }
        return hours * 60 + minutes
    }

    static func clock(_ minute: Int) -> String {
        let hours = minute / 60, minutes = minute % 60
        return (hours < 10 ? "0" : "") + "\(hours):" + (minutes < 10 ? "0" : "") + "\(minutes)"
    }
}

