import Foundation

/// A point in time with the millisecond precision of FIPA date-times, kept as whole
/// milliseconds since 1970 so that printing and parsing give back the exact `Date`.
struct Timestamp: Hashable, Sendable {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    let milliseconds: Int64

    init(milliseconds: Int64) { self.milliseconds = milliseconds }

    /// The instant of `date`, rounded to the nearest millisecond.
    init(_ date: Date) {
        milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    /// The `Date` for this instant; equal for equal timestamps.
    var date: Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }

    /// `date` rounded to the millisecond, as every message keeps it.
    static func rounded(_ date: Date?) -> Date? { date.map { Timestamp($0).date } }

    /// ISO 8601 in UTC with milliseconds: `2026-11-18T11:06:40.250Z`.
    var iso8601: String {
        let (days, msOfDay) = milliseconds.floorDividedBy(86_400_000)
        let (year, month, day) = CivilCalendar.civil(fromDays: days)
        let hour = msOfDay / 3_600_000, minute = msOfDay / 60_000 % 60
        let second = msOfDay / 1000 % 60, millisecond = msOfDay % 1000
        return String(format: "%04lld-%02lld-%02lldT%02lld:%02lld:%02lld.%03lldZ", year, month, day, hour, minute, second, millisecond)
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fff]Z`; `nil` if the text is anything else.
    init?(iso8601 text: String) {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int64? {
            guard range.upperBound <= bytes.count else { return nil }
            var value: Int64 = 0
            for byte in bytes[range] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int64(byte - 48)
            }
            return value
        }
        guard bytes.count >= 20, bytes[4] == 45, bytes[7] == 45, bytes[10] == 84, bytes[13] == 58, bytes[16] == 58,
            bytes.last == 90,
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), (1...CivilCalendar.daysIn(month: month, year: year)).contains(day),
            hour < 24, minute < 60, second < 60
        else { return nil }
        var millisecond: Int64 = 0
        if bytes.count != 20 {  // a fraction: ".f" to ".fff" before the Z
            guard bytes[19] == 46, (22...24).contains(bytes.count), let fraction = number(20..<(bytes.count - 1)) else {
                return nil
            }
            millisecond = fraction * [100, 10, 1][bytes.count - 22]
        }
        let days = CivilCalendar.days(fromCivil: year, month, day)
        milliseconds = ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + millisecond
    }
}

extension Int64 {
    /// Quotient and non-negative remainder.
    func floorDividedBy(_ divisor: Int64) -> (Int64, Int64) {
        let remainder = self % divisor
        return remainder < 0 ? (self / divisor - 1, remainder + divisor) : (self / divisor, remainder)
    }
}
