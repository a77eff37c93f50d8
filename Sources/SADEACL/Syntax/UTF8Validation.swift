/// The offset of the first byte of `bytes` that does not start a well-formed UTF-8
/// sequence (overlong forms, surrogates and values above U+10FFFF are ill-formed), or
/// `nil` when all of it is valid UTF-8. Runs through ASCII eight bytes at a time.
func firstInvalidUTF8Offset(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    guard let base = bytes.baseAddress else { return nil }
    let count = bytes.count
    var index = 0
    while index < count {
        while index + 8 <= count {
            let eight = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            if eight & 0x8080_8080_8080_8080 != 0 { break }
            index += 8
        }
        guard index < count else { return nil }
        let lead = bytes[index]
        if lead < 0x80 {
            index += 1
            continue
        }
        let following: Int
        var scalar: UInt32
        switch lead {
        case 0xC2...0xDF: following = 1; scalar = UInt32(lead & 0x1F)
        case 0xE0...0xEF: following = 2; scalar = UInt32(lead & 0x0F)
        case 0xF0...0xF4: following = 3; scalar = UInt32(lead & 0x07)
        default: return index
        }
        guard index + following < count else { return index }
        for step in 1...following {
            let byte = bytes[index + step]
            guard byte & 0xC0 == 0x80 else { return index }
            scalar = scalar << 6 | UInt32(byte & 0x3F)
        }
        if following == 2, scalar < 0x800 || (0xD800...0xDFFF).contains(scalar) { return index }
        if following == 3, scalar < 0x10000 || scalar > 0x10FFFF { return index }
        index += following + 1
    }
    return nil
}
