import Foundation
import SADEHealth
import SADETestTiming
import Testing

@Suite("FHIR dateTime and date text", .timeLimit(.minutes(5)), .timed)
struct FHIRDateTimeTests {
    @Test("instants are written in UTC to the millisecond")
    func writes() {
        #expect(FHIRDateTime.string(from: Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
        #expect(FHIRDateTime.string(from: Date(timeIntervalSince1970: 951_782_400.5)) == "2000-02-29T00:00:00.500Z")
        #expect(FHIRDateTime.string(from: Date(timeIntervalSince1970: -0.001)) == "1969-12-31T23:59:59.999Z")
        #expect(FHIRDateTime.dateString(from: Date(timeIntervalSince1970: -86_400 * 365)) == "1969-01-01")
    }

    @Test("zones and fraction digits are read; what is not a dateTime with time and zone is refused")
    func reads() {
        #expect(FHIRDateTime.date(from: "2024-03-01T08:30:00-03:00") == Date(timeIntervalSince1970: 1_709_292_600))
        #expect(FHIRDateTime.date(from: "2024-03-01T11:30:00Z") == Date(timeIntervalSince1970: 1_709_292_600))
        #expect(FHIRDateTime.date(from: "2024-03-01T11:30:00.1239Z") == Date(timeIntervalSince1970: 1_709_292_600.124))
        #expect(FHIRDateTime.date(from: "2024-03-01T11:30:00.5+01:00") == Date(timeIntervalSince1970: 1_709_289_000.5))
        for bad in ["2024-03-01", "2024-03-01T11:30:00", "2024-02-30T00:00:00Z", "2024-13-01T00:00:00Z", "2024-03-01T24:00:00Z",
            "2024-03-01T11:30:00.Z", "2024-03-01T11:30:00Zjunk", "yesterday", ""]
        {
            #expect(FHIRDateTime.date(from: bad) == nil, "\(bad)")
        }
        #expect(FHIRDateTime.day(from: "1950-04-02") == Date(timeIntervalSince1970: -623_289_600))
        #expect(FHIRDateTime.day(from: "1950-04") == FHIRDateTime.day(from: "1950-04-01"))
        #expect(FHIRDateTime.day(from: "1950-4-2") == nil)
    }

    @Test("writing then reading gives the instant at millisecond precision")
    func roundTrip() {
        for seconds in [0.0, 1_700_000_000.250, 1_700_000_000.123_456, -1_000_000.999_6, 4_102_444_799.999] {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(FHIRDateTime.date(from: FHIRDateTime.string(from: date)) == FHIRDateTime.millisecondPrecision(date), "\(seconds)")
        }
    }

    @Test("dates outside the years 0001–9999 are written as the nearest instant inside, never a crash")
    func clampsImpossibleDates() {
        let last = "9999-12-31T23:59:59.999Z", first = "0001-01-01T00:00:00.000Z"
        #expect(FHIRDateTime.string(from: Date(timeIntervalSince1970: 1e17)) == last)
        #expect(FHIRDateTime.string(from: Date(timeIntervalSinceReferenceDate: .infinity)) == last)
        #expect(FHIRDateTime.string(from: Date(timeIntervalSinceReferenceDate: -.infinity)) == first)
        #expect(FHIRDateTime.string(from: Date(timeIntervalSinceReferenceDate: .nan)) == first)
        #expect(FHIRDateTime.dateString(from: Date(timeIntervalSince1970: -1e17)) == "0001-01-01")
        #expect(FHIRDateTime.dateString(from: Date(timeIntervalSince1970: 1e300)) == "9999-12-31")
        #expect(FHIRDateTime.string(from: Date(timeIntervalSince1970: 253_402_300_799.999)) == last)
    }
}
