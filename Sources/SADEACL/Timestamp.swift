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
        let (year, month, day) = Self.civil(fromDays: days)
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
            (1...12).contains(month), (1...Self.daysIn(month: month, year: year)).contains(day),
            hour < 24, minute < 60, second < 60
        else { return nil }
        var millisecond: Int64 = 0
        if bytes.count != 20 {  // a fraction: ".f" to ".fff" before the Z
            guard bytes[19] == 46, (22...24).contains(bytes.count), let fraction = number(20..<(bytes.count - 1)) else {
                return nil
            }
            millisecond = fraction * [100, 10, 1][bytes.count - 22]
        }
        let days = Self.days(fromCivil: year, month, day)
        milliseconds = ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + millisecond
    }

    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    // Howard Hinnant's days-from-civil and civil-from-days, proleptic Gregorian.
    static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

extension Int64 {
    /// Quotient and non-negative remainder.
    func floorDividedBy(_ divisor: Int64) -> (Int64, Int64) {
        let remainder = self % divisor
        return remainder < 0 ? (self / divisor - 1, remainder + divisor) : (self / divisor, remainder)
    }
}
