import Foundation

/// FHIR `dateTime` and `date` text, to the millisecond and in UTC.
///
/// SADE writes instants as `2024-03-01T08:30:00.250Z`: dates are kept to the
/// millisecond, so a sample comes back from FHIR with every date equal to
/// ``millisecondPrecision(_:)`` of the original. It reads any FHIR `dateTime` that
/// has a time and a zone (`Z` or `±hh:mm`, any number of fraction digits, rounded to
/// the millisecond); a date without a time is not an instant and is refused.
public enum FHIRDateTime {
    /// `date` as FHIR `dateTime` text in UTC, to the millisecond.
    public static func string(from date: Date) -> String {
        let milliseconds = epochMilliseconds(date)
        let (days, dayMilliseconds) = floorDivide(milliseconds, 86_400_000)
        let (year, month, day) = civil(fromDays: days)
        let hour = dayMilliseconds / 3_600_000, minute = dayMilliseconds / 60_000 % 60
        let second = dayMilliseconds / 1000 % 60, fraction = dayMilliseconds % 1000
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2)).\(pad(fraction, 3))Z"
    }

    /// The instant a FHIR `dateTime` with a time and a zone names; `nil` for anything else.
    public static func date(from text: String) -> Date? {
        var scanner = Scanner(text)
        guard let days = scanner.calendarDate(), scanner.take("T"),
            let hour = scanner.number(digits: 2), hour < 24, scanner.take(":"),
            let minute = scanner.number(digits: 2), minute < 60, scanner.take(":"),
            let second = scanner.number(digits: 2), second < 60
        else { return nil }
        var milliseconds = ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000
        if scanner.take(".") {
            guard let fraction = scanner.fractionInMilliseconds() else { return nil }
            milliseconds += fraction
        }
        if scanner.take("Z") {
            // UTC
        } else if let sign = scanner.take(anyOf: "+-") {
            guard let zoneHour = scanner.number(digits: 2), zoneHour <= 14, scanner.take(":"),
                let zoneMinute = scanner.number(digits: 2), zoneMinute < 60
            else { return nil }
            let offset = (zoneHour * 60 + zoneMinute) * 60_000
            milliseconds -= sign == "+" ? offset : -offset
        } else {
            return nil
        }
        guard scanner.isAtEnd else { return nil }
        return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// `date`'s calendar day in UTC as FHIR `date` text, e.g. `1950-04-02`.
    public static func dateString(from date: Date) -> String {
        let (days, _) = floorDivide(epochMilliseconds(date), 86_400_000)
        let (year, month, day) = civil(fromDays: days)
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    /// Midnight UTC of a FHIR `date` (`1950-04-02`; `1950-04` and `1950` mean the first
    /// day); `nil` for anything else.
    public static func day(from text: String) -> Date? {
        var scanner = Scanner(text)
        guard let days = scanner.calendarDate(partial: true), scanner.isAtEnd else { return nil }
        return Date(timeIntervalSince1970: Double(days) * 86_400)
    }

    /// `date` rounded to the millisecond, as it comes back from FHIR text.
    public static func millisecondPrecision(_ date: Date) -> Date {
        Date(timeIntervalSince1970: Double(epochMilliseconds(date)) / 1000)
    }

    // MARK: Arithmetic on whole days (proleptic Gregorian calendar, H. Hinnant's algorithms)

    static func epochMilliseconds(_ date: Date) -> Int {
        Int((date.timeIntervalSince1970 * 1000).rounded())
    }

    private static func floorDivide(_ value: Int, _ divisor: Int) -> (Int, Int) {
        let quotient = value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
        return (quotient, value - quotient * divisor)
    }

    static func days(fromCivil year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func daysInMonth(_ year: Int, _ month: Int) -> Int {
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// Reads FHIR date and time text left to right.
    private struct Scanner {
        private let bytes: [UInt8]
        private var position = 0

        init(_ text: String) { bytes = Array(text.utf8) }

        var isAtEnd: Bool { position == bytes.count }

        mutating func take(_ character: Character) -> Bool {
            guard position < bytes.count, bytes[position] == character.asciiValue else { return false }
            position += 1
            return true
        }

        mutating func take(anyOf characters: String) -> Character? {
            for character in characters where take(character) { return character }
            return nil
        }

        mutating func number(digits: Int) -> Int? {
            guard position + digits <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[position..<position + digits] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            position += digits
            return value
        }

        /// Fraction digits after the point, rounded to whole milliseconds.
        mutating func fractionInMilliseconds() -> Int? {
            var digits: [Int] = []
            while let digit = number(digits: 1) { digits.append(digit) }
            guard !digits.isEmpty else { return nil }
            let padded = digits + [0, 0, 0, 0]
            return padded[0] * 100 + padded[1] * 10 + padded[2] + (padded[3] >= 5 ? 1 : 0)
        }

        /// `YYYY-MM-DD` as days since 1970-01-01; with `partial`, `YYYY` and `YYYY-MM` too.
        mutating func calendarDate(partial: Bool = false) -> Int? {
            guard let year = number(digits: 4), year >= 1 else { return nil }
            guard take("-") else { return partial ? FHIRDateTime.days(fromCivil: year, 1, 1) : nil }
            guard let month = number(digits: 2), (1...12).contains(month) else { return nil }
            guard take("-") else { return partial ? FHIRDateTime.days(fromCivil: year, month, 1) : nil }
            guard let day = number(digits: 2), (1...FHIRDateTime.daysInMonth(year, month)).contains(day) else { return nil }
            return FHIRDateTime.days(fromCivil: year, month, day)
        }
    }
}
