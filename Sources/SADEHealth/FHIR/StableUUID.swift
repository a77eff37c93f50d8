import Foundation

extension UUID {
    /// A UUID that is always the same for the same `name` (RFC 9562 version 8, from two
    /// 64-bit FNV-1a hashes, each mixed by the SplitMix64 finalizer so that similar
    /// names give unlike UUIDs): the patient's `urn:uuid:` in a Bundle, and the
    /// identifiers of blood-pressure members a foreign Bundle does not give.
    init(stableFor name: String) {
        func fnv1a(_ seed: UInt64) -> UInt64 {
            var hash = seed
            for byte in name.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01B3
            }
            hash = (hash ^ (hash >> 30)) &* 0xBF58_476D_1CE4_E5B9
            hash = (hash ^ (hash >> 27)) &* 0x94D0_49BB_1331_11EB
            return hash ^ (hash >> 31)
        }
        var bytes = [UInt8](repeating: 0, count: 16)
        for (offset, hash) in [(0, fnv1a(0xCBF2_9CE4_8422_2325)), (8, fnv1a(0x6C62_272E_07BB_0142))] {
            for index in 0..<8 { bytes[offset + index] = UInt8(truncatingIfNeeded: hash >> (8 * UInt64(index))) }
        }
        bytes[6] = bytes[6] & 0x0F | 0x80  // version 8
        bytes[8] = bytes[8] & 0x3F | 0x80  // RFC variant
        self.init(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                         bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    /// `urn:uuid:` and the UUID in lower case, as Bundle entries name resources.
    var urn: String { "urn:uuid:" + uuidString.lowercased() }

    /// The UUID in `urn:uuid:…` text, or in plain text.
    init?(urnOrString text: String) {
        let plain = text.hasPrefix("urn:uuid:") ? String(text.dropFirst("urn:uuid:".count)) : text
        self.init(uuidString: plain)
    }
}
