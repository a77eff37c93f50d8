import Foundation
import SADEACL

/// FHIR `dateTime` and `date` text, to the millisecond and in UTC.
///
/// SADE writes instants as `2024-03-01T08:30:00.250Z`: dates are kept to the
/// millisecond, so a sample comes back from FHIR with every date equal to
/// ``millisecondPrecision(_:)`` of the original. It reads any FHIR `dateTime` that
/// has a time and a zone (`Z` or `±hh:mm`, any number of fraction digits, rounded to
/// the millisecond); a date without a time is not an instant and is refused.
///
/// FHIR text holds the years 0001 to 9999 (``HealthSample/possibleDates``). Writing
/// never fails: a date outside is written as the nearest instant inside (one that is
/// not a number as the earliest). Samples cannot hold such dates, and the exporter
/// refuses a date of birth outside, so only a caller passing its own date sees this.
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

    /// Milliseconds since 1970, clamped to the years 0001–9999 so that no date traps.
    static func epochMilliseconds(_ date: Date) -> Int {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        let earliest = HealthSample.possibleDates.lowerBound.timeIntervalSince1970 * 1000
        let latest = HealthSample.possibleDates.upperBound.timeIntervalSince1970 * 1000 - 1
        guard !milliseconds.isNaN else { return Int(earliest) }
        return Int(min(max(milliseconds, earliest), latest))
    }

    private static func floorDivide(_ value: Int, _ divisor: Int) -> (Int, Int) {
        let quotient = value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
        return (quotient, value - quotient * divisor)
    }

    static func days(fromCivil year: Int, _ month: Int, _ day: Int) -> Int {
        Int(CivilCalendar.days(fromCivil: Int64(year), Int64(month), Int64(day)))
    }

    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let (year, month, day) = CivilCalendar.civil(fromDays: Int64(days))
        return (Int(year), Int(month), Int(day))
    }

    static func daysInMonth(_ year: Int, _ month: Int) -> Int {
        Int(CivilCalendar.daysIn(month: Int64(month), year: Int64(year)))
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
