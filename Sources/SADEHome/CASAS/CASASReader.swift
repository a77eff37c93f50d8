import Foundation

/// One line of a CASAS smart-home dataset: `YYYY-MM-DD HH:MM:SS[.ffffff] SENSOR VALUE
/// [ACTIVITY begin|end]` (the format of the public WSU CASAS datasets).
public struct CASASLine: Hashable, Sendable {
    /// The line's number in the file, from 1.
    public var line: Int
    /// When the sensor reported, in the flat's time zone.
    public var time: Date
    /// The sensor's name, e.g. `M003`.
    public var sensor: String
    /// The value as a number: ON, OPEN, PRESENT → 1; OFF, CLOSE, CLOSED, ABSENT → 0; numbers as they are.
    public var value: Double
    /// The activity label that begins or ends here, if any (`Sleeping`, `Meal_Preparation`).
    public var activity: String?
    /// Whether the activity begins (`true`) or ends here.
    public var begins: Bool

    /// A line.
    public init(line: Int, time: Date, sensor: String, value: Double, activity: String? = nil, begins: Bool = false) {
        self.line = line
        self.time = time
        self.sensor = sensor
        self.value = value
        self.activity = activity
        self.begins = begins
    }
}

/// Why a CASAS file cannot be read.
public enum CASASError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A line is not a CASAS line; `line` counts from 1.
    case badLine(line: Int, reason: String)
    /// A sensor has no device: neither its prefix (M, D, T) nor the device map says what it is.
    case unknownSensor(line: Int, sensor: String)
    /// The file has no events.
    case empty

    public var description: String {
        switch self {
        case .badLine(let line, let reason): "line \(line): \(reason)"
        case .unknownSensor(let line, let sensor):
            "line \(line): sensor \(sensor) is not motion (M…), door (D…) or temperature (T…) and the device map does not name it"
        case .empty: "the file has no events"
        }
    }
}

/// Reads CASAS files.
public enum CASASReader {
    /// Every event line of `text`; blank lines and `#` comments are skipped. Throws at the
    /// first bad line, naming it.
    public static func parse(_ text: String, timeZone: TimeZone) throws(CASASError) -> [CASASLine] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        var lines: [CASASLine] = []
        var number = 0
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            number += 1
            let fields = raw.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            if fields.isEmpty || fields[0].hasPrefix("#") { continue }
            lines.append(try line(fields, number: number, calendar: calendar))
        }
        guard !lines.isEmpty else { throw .empty }
        return lines
    }

    private static func line(_ fields: [Substring], number: Int, calendar: Calendar) throws(CASASError) -> CASASLine {
        guard fields.count == 4 || fields.count == 6 else {
            throw .badLine(line: number, reason: "expected DATE TIME SENSOR VALUE [ACTIVITY begin|end], found \(fields.count) fields")
        }
        let time = try date(fields[0], fields[1], number: number, calendar: calendar)
        let sensor = String(fields[2])
        // The name in lower case is the device's object id, so only what an object id may hold.
        guard sensor.count <= 64, sensor.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") })
        else {
            throw .badLine(line: number, reason: "sensor name \(sensor.prefix(64).debugDescription) must be ASCII letters, digits or _")
        }
        guard let value = value(fields[3]) else {
            throw .badLine(line: number, reason: "value \(String(fields[3].prefix(40)).debugDescription) of \(sensor) is neither ON/OFF/OPEN/CLOSE nor a number")
        }
        var result = CASASLine(line: number, time: time, sensor: sensor, value: value)
        if fields.count == 6 {
            let marker = fields[5].lowercased()
            guard marker == "begin" || marker == "end" else {
                throw .badLine(line: number, reason: "the activity \(fields[4]) must be followed by begin or end, not \(fields[5].prefix(20))")
            }
            result.activity = String(fields[4])
            result.begins = marker == "begin"
        }
        return result
    }

    private static func date(_ day: Substring, _ clock: Substring, number: Int, calendar: Calendar) throws(CASASError) -> Date {
        let dayParts = day.split(separator: "-").compactMap { Int($0) }
        let clockParts = clock.split(separator: ":")
        guard dayParts.count == 3, clockParts.count == 3, let hour = Int(clockParts[0]), let minute = Int(clockParts[1]),
            let seconds = Double(clockParts[2]), (1...12).contains(dayParts[1]), (1...31).contains(dayParts[2]),
            (0...23).contains(hour), (0...59).contains(minute), seconds >= 0, seconds < 61
        else { throw .badLine(line: number, reason: "\(day) \(clock) is not a valid date and time (YYYY-MM-DD HH:MM:SS[.ffffff])") }
        let components = DateComponents(year: dayParts[0], month: dayParts[1], day: dayParts[2], hour: hour, minute: minute, second: Int(seconds))
        guard let date = calendar.date(from: components), calendar.component(.day, from: date) == dayParts[2] else {
            throw .badLine(line: number, reason: "\(day) is not a day of the calendar")
        }
        return date.addingTimeInterval(seconds - seconds.rounded(.down))
    }

    static func value(_ text: Substring) -> Double? {
        switch text.uppercased() {
        case "ON", "OPEN", "PRESENT", "TRUE": 1
        case "OFF", "CLOSE", "CLOSED", "ABSENT", "FALSE": 0
        default: Double(text).flatMap { $0.isFinite ? $0 : nil }
        }
    }
}
