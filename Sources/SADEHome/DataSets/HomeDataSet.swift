import Foundation

/// A real home's recording in one of the public formats, read into what an import
/// needs: the readings as ``CASASLine``s, each sensor's kind and room, a plan of the flat
/// with the rooms the data names, and the activities its authors annotated.
public struct HomeDataSet: Sendable {
    /// The formats `sade home import --format` reads.
    public enum Format: String, CaseIterable, Sendable {
        /// `YYYY-MM-DD HH:MM:SS SENSOR VALUE [ACTIVITY begin|end]` (WSU CASAS).
        case casas
        /// The UCI ADL data set of Ordóñez et al.: tab-separated sensor intervals.
        case ordonez
        /// The MavHome project's MavPad apartment: one PostgreSQL table dump a day.
        case mavpad

        /// The time zone the format's public data sets were recorded in.
        public var timeZone: String {
            switch self {
            case .casas: "UTC"
            case .ordonez: "Europe/Madrid"
            case .mavpad: "America/Chicago"
            }
        }
    }

    /// The readings, oldest first.
    public var lines: [CASASLine]
    /// Each sensor's kind and room.
    public var map: CASASDeviceMap
    /// A flat with the rooms the sensors are in (squares side by side: the data sets have no floor plans).
    public var plan: FlatPlan
    /// The annotated activities: label → episodes.
    public var activities: [String: [DateInterval]]
    /// What the reader left out, and why (a day recorded twice, say).
    public var notes: [String] = []

    /// A data set.
    public init(lines: [CASASLine], map: CASASDeviceMap, plan: FlatPlan, activities: [String: [DateInterval]] = [:], notes: [String] = []) {
        self.lines = lines
        self.map = map
        self.plan = plan
        self.activities = activities
        self.notes = notes
    }

    /// A plan named `name` with one room for each of `rooms` (name → type), in the order given.
    static func plan(name: String, timeZone: String, rooms: [(name: String, type: RoomType)]) -> FlatPlan {
        let plans = rooms.enumerated().map { index, room in
            let x = Double(index * 4)
            return RoomPlan(
                name: room.name, type: room.type,
                polygon: [PlanPoint(x: x, y: 0), PlanPoint(x: x + 4, y: 0), PlanPoint(x: x + 4, y: 4), PlanPoint(x: x, y: 4)])
        }
        return FlatPlan(name: name, timeZone: timeZone, rooms: plans)
    }

    /// A calendar in `timeZone`.
    static func calendar(_ timeZone: String) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: timeZone) ?? .gmt
        return calendar
    }

    /// `2011-11-28 02:27:59` (spaces around it allowed) in `calendar`'s time zone, else `nil`.
    static func time(_ text: Substring, calendar: Calendar) -> Date? {
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "-" || $0 == ":" }).compactMap { Int($0) }
        guard parts.count == 6, (1...12).contains(parts[1]), (1...31).contains(parts[2]), (0...23).contains(parts[3]),
            (0...59).contains(parts[4]), (0...60).contains(parts[5])
        else { return nil }
        let components = DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: parts[3], minute: parts[4], second: parts[5])
        guard let date = calendar.date(from: components), calendar.component(.day, from: date) == parts[2] else { return nil }
        return date
    }
}

/// Reads `YYYY-MM-DD HH:MM:SS` from bytes, fast: each day's midnight is asked of the
/// calendar once, and the time of day added to it (on a day whose length is not 24 hours,
/// a change to or from summer time, the calendar is asked for every time).
struct DayClock {
    let calendar: Calendar
    private var midnights: [Int: (midnight: Date, isPlain: Bool)] = [:]

    init(calendar: Calendar) { self.calendar = calendar }

    /// The time `field` names, in the calendar's time zone; `nil` if it names none.
    mutating func time(_ field: ArraySlice<UInt8>) -> Date? {
        let digits = field.split { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ":") }.map(Self.number)
        guard digits.count == 6, let year = digits[0], let month = digits[1], let day = digits[2], let hour = digits[3], let minute = digits[4],
            let second = digits[5], (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second <= 60
        else { return nil }
        let key = year * 10_000 + month * 100 + day
        if midnights[key] == nil {
            guard let midnight = calendar.date(from: DateComponents(year: year, month: month, day: day)), calendar.component(.day, from: midnight) == day,
                let next = calendar.date(byAdding: .day, value: 1, to: midnight)
            else { return nil }
            midnights[key] = (midnight, next.timeIntervalSince(midnight) == 86400)
        }
        guard let (midnight, isPlain) = midnights[key] else { return nil }
        if isPlain { return midnight.addingTimeInterval(Double(hour * 3600 + minute * 60 + second)) }
        return calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second))
    }

    /// `bytes` without the spaces, tabs and carriage returns around them.
    static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else { return [] }
        return bytes[first...last]
    }

    /// The decimal number `bytes` spell (at most 9 digits), else `nil`.
    static func number(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard !bytes.isEmpty, bytes.count <= 9 else { return nil }
        var value = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    /// `bytes` as text (for messages), at most 40 bytes of it.
    static func text(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes.prefix(40), as: UTF8.self) }
}
