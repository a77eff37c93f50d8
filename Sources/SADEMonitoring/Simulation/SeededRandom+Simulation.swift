import Foundation
import SADECore

/// The vital-sign simulator's use of the seeded generator: a seed fixes every value.
extension SeededRandom {
    /// A number in `-spread...spread`.
    mutating func jitter(_ spread: Double) -> Double {
        Double.random(in: -spread...spread, using: &self)
    }

    /// A version-4 UUID made of the next 128 bits.
    mutating func uuid() -> UUID {
        var bytes = [UInt8]()
        for _ in 0..<2 { withUnsafeBytes(of: next().littleEndian) { bytes += $0 } }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    /// FNV-1a of `text`: a hash that is the same in every process (Swift's `Hasher` is not).
    static func stableHash(_ text: String) -> UInt64 {
        text.utf8.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01B3 }
    }
}
