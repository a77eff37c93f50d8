import Foundation
import SADEHealth
import SADETestTiming
import Testing

@Suite("Time-ordered sample ids (UUID version 7)", .timeLimit(.minutes(5)), .timed)
struct TimeOrderedUUIDTests {
    @Test("version 7, RFC 9562 variant, the Unix milliseconds in the first 48 bits")
    func layout() {
        let date = Date(timeIntervalSince1970: 1_795_000_000.123)
        let id = UUID.timeOrdered(at: date)
        let bytes = withUnsafeBytes(of: id.uuid) { Array($0) }
        #expect(bytes[6] >> 4 == 7)
        #expect(bytes[8] >> 6 == 0b10)
        let milliseconds = bytes[0..<6].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        #expect(milliseconds == 1_795_000_000_123)
        #expect(UUID.timeOrdered(at: date) != id, "74 random bits tell ids of the same millisecond apart")
    }

    @Test("ids made later sort after earlier ones, byte by byte (as SQLite compares the stored blob)")
    func ordering() {
        let start = Date(timeIntervalSince1970: 1_760_000_000)
        let ids = (0..<1000).map { UUID.timeOrdered(at: start.addingTimeInterval(Double($0) / 500)) }
        let keys = ids.map { id in withUnsafeBytes(of: id.uuid) { Array($0) } }
        for (earlier, later) in zip(keys, keys.dropFirst()) where earlier[0..<6] != later[0..<6] {
            #expect(earlier.lexicographicallyPrecedes(later))
        }
        #expect(HealthSample.quantity(.heartRate, 70, patient: "p", at: start).id.uuidString.dropFirst(14).first == "7")
    }
}
