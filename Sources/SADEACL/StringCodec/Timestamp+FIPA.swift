import Foundation

/// Why a date-time token does not name an instant (the lexer has already checked its shape).
struct FIPADateTimeProblem: Error {
    let reason: String
}

extension Timestamp {
    /// Appends the FIPA form `YYYYMMDDTHHMMSSmmmZ` (UTC, fipa00070) to `bytes`.
    func appendFIPA(to bytes: inout [UInt8]) throws(ACLEncodingError) {
        let (days, msOfDay) = milliseconds.floorDividedBy(86_400_000)
        let (year, month, day) = CivilCalendar.civil(fromDays: days)
        guard (0...9999).contains(year) else { throw .replyByOutOfRange(milliseconds: milliseconds) }
        func digits(_ value: Int64, _ count: Int) {
            var divisor: Int64 = 1
            for _ in 1..<count { divisor *= 10 }
            while divisor > 0 {
                bytes.append(UInt8(truncatingIfNeeded: value / divisor % 10) + 48)
                divisor /= 10
            }
        }
        digits(year, 4)
        digits(month, 2)
        digits(day, 2)
        bytes.append(UInt8(ascii: "T"))
        digits(msOfDay / 3_600_000, 2)
        digits(msOfDay / 60_000 % 60, 2)
        digits(msOfDay / 1000 % 60, 2)
        digits(msOfDay % 1000, 3)
        bytes.append(UInt8(ascii: "Z"))
    }

    /// Reads a FIPA date-time token, `[+|-]YYYYMMDDTHHMMSSmmm[Z]`, whose shape the lexer
    /// has checked. `Z` means UTC; no designator means the local time zone, as fipa00070
    /// says; a sign makes it a time relative to `now`, counting a year as 365 days and a
    /// month as 30 (as JADE does). Other designator letters are refused.
    init(fipa token: UnsafeBufferPointer<UInt8>, now: () -> Date = Date.init) throws(FIPADateTimeProblem) {
        let signed = token[0] == UInt8(ascii: "+") || token[0] == UInt8(ascii: "-")
        let base = signed ? 1 : 0
        func number(_ from: Int, _ count: Int) -> Int64 {
            var value: Int64 = 0
            for index in (base + from)..<(base + from + count) { value = value * 10 + Int64(token[index] &- 48) }
            return value
        }
        let year = number(0, 4), month = number(4, 2), day = number(6, 2)
        let hour = number(9, 2), minute = number(11, 2), second = number(13, 2), millisecond = number(15, 3)
        let designator: UInt8? = token.count > base + 18 ? token[base + 18] : nil
        if signed {
            let days = year * 365 + month * 30 + day
            let duration = (((days * 24 + hour) * 60 + minute) * 60 + second) * 1000 + millisecond
            let from = Timestamp(now()).milliseconds
            self.init(milliseconds: token[0] == UInt8(ascii: "+") ? from + duration : from - duration)
            return
        }
        guard (1...12).contains(month) else { throw FIPADateTimeProblem(reason: "month \(month) is not 01-12") }
        let monthDays = CivilCalendar.daysIn(month: month, year: year)
        guard (1...monthDays).contains(day) else {
            throw FIPADateTimeProblem(reason: "day \(day) is not 01-\(monthDays) in month \(month) of \(year)")
        }
        guard hour < 24, minute < 60, second < 60 else {
            throw FIPADateTimeProblem(reason: "time \(hour):\(minute):\(second) is not a time of day")
        }
        let wallClock =
            ((CivilCalendar.days(fromCivil: year, month, day) * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + millisecond
        switch designator {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            self.init(milliseconds: wallClock)
        case nil:
            // Local time: take the zone's offset at the instant, then once more at the
            // corrected instant so that days on which the offset changes come out right.
            let zone = TimeZone.current
            func offset(_ ms: Int64) -> Int64 {
                Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(ms) / 1000))) * 1000
            }
            self.init(milliseconds: wallClock - offset(wallClock - offset(wallClock)))
        case let letter?:
            throw FIPADateTimeProblem(
                reason: "time zone designator '\(Character(Unicode.Scalar(letter)))' is not supported; "
                    + "use Z (UTC) or none (local time)"
            )
        }
    }
}
