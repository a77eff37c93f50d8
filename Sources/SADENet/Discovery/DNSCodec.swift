/// Why a packet is not a DNS message we take: each is dropped, never trusted in part.
public enum DNSFormatError: Error, Hashable, Sendable, CustomStringConvertible {
    /// It ends inside a header, name or record.
    case truncated
    /// A compression pointer that does not point before itself (a loop), or too many of them.
    case badPointer
    /// A label longer than 63 bytes, a name longer than 255, or a reserved label type.
    case badName
    /// More records or questions than a packet of its size can hold, or than we take.
    case tooManyEntries
    /// A record whose data does not fit its type (an A record of 5 bytes, a TXT string past its end).
    case badRecord(DNSRecordType)
    /// Larger than an mDNS packet may be (9,000 bytes).
    case tooLarge

    public var description: String {
        switch self {
        case .truncated: "the packet ends early"
        case .badPointer: "a name's compression pointer loops or points forward"
        case .badName: "a name or label is too long or of a reserved type"
        case .tooManyEntries: "more entries than the packet can hold"
        case .badRecord(let type): "a \(type) record's data is malformed"
        case .tooLarge: "the packet is larger than 9000 bytes"
        }
    }
}

/// Writes and reads DNS messages. Writing never compresses names (mDNS packets of a
/// few services stay small); reading follows compression pointers, each strictly
/// backwards, so that no packet can make it loop.
public enum DNSCodec {
    /// The largest packet taken (RFC 6762 §17).
    public static let maximumPacket = 9_000
    /// The most entries of one section taken.
    public static let maximumEntries = 256
    static let classIN: UInt16 = 1

    // MARK: Writing

    /// The message's bytes.
    public static func encode(_ message: DNSMessage) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(512)
        append16(message.id, to: &out)
        append16(message.isResponse ? 0x8400 : 0, to: &out)  // QR + AA for responses
        append16(UInt16(message.questions.count), to: &out)
        append16(UInt16(message.answers.count), to: &out)
        append16(UInt16(message.authorities.count), to: &out)
        append16(UInt16(message.additionals.count), to: &out)
        for question in message.questions {
            appendName(question.name, to: &out)
            append16(question.type.rawValue, to: &out)
            append16(classIN | (question.unicastResponse ? 0x8000 : 0), to: &out)
        }
        for record in message.records { appendRecord(record, to: &out) }
        return out
    }

    private static func appendRecord(_ record: DNSRecord, to out: inout [UInt8]) {
        appendName(record.name, to: &out)
        append16(record.type.rawValue, to: &out)
        append16(classIN | (record.cacheFlush ? 0x8000 : 0), to: &out)
        append32(record.ttl, to: &out)
        var data: [UInt8] = []
        switch record.data {
        case .ptr(let name): appendName(name, to: &data)
        case .srv(let priority, let weight, let port, let target):
            append16(priority, to: &data)
            append16(weight, to: &data)
            append16(port, to: &data)
            appendName(target, to: &data)
        case .txt(let strings):
            // An empty TXT record is one empty string (RFC 6763 §6.1).
            for string in strings.isEmpty ? [""] : strings {
                let bytes = Array(string.utf8.prefix(255))
                data.append(UInt8(bytes.count))
                data += bytes
            }
        case .a(let address): data += [address.bytes.0, address.bytes.1, address.bytes.2, address.bytes.3]
        case .aaaa(let bytes): data += bytes
        case .other(_, let bytes): data += bytes
        }
        append16(UInt16(data.count), to: &out)
        out += data
    }

    private static func appendName(_ name: DNSName, to out: inout [UInt8]) {
        for label in name.labels {
            let bytes = Array(label.utf8.prefix(63))
            out.append(UInt8(bytes.count))
            out += bytes
        }
        out.append(0)
    }

    private static func append16(_ value: UInt16, to out: inout [UInt8]) {
        out.append(UInt8(value >> 8))
        out.append(UInt8(value & 0xFF))
    }

    private static func append32(_ value: UInt32, to out: inout [UInt8]) {
        append16(UInt16(value >> 16), to: &out)
        append16(UInt16(value & 0xFFFF), to: &out)
    }

    // MARK: Reading

    /// The message in `bytes`.
    ///
    /// - Throws: ``DNSFormatError`` for anything malformed, hostile or too large.
    public static func decode(_ bytes: [UInt8]) throws(DNSFormatError) -> DNSMessage {
        guard bytes.count <= maximumPacket else { throw .tooLarge }
        var reader = Reader(bytes: bytes)
        let id = try reader.u16()
        let flags = try reader.u16()
        let counts = [try reader.u16(), try reader.u16(), try reader.u16(), try reader.u16()].map(Int.init)
        // Every question takes at least 5 bytes and every record 11: more than fit is a lie.
        guard counts.allSatisfy({ $0 <= maximumEntries }), counts[0] * 5 + (counts[1] + counts[2] + counts[3]) * 11 <= bytes.count - 12
        else { throw .tooManyEntries }
        var message = DNSMessage(id: id, isResponse: flags & 0x8000 != 0)
        for _ in 0..<counts[0] {
            let name = try reader.name()
            let type = DNSRecordType(rawValue: try reader.u16())
            let klass = try reader.u16()
            message.questions.append(DNSQuestion(name, type, unicastResponse: klass & 0x8000 != 0))
        }
        message.answers = try (0..<counts[1]).map { _ throws(DNSFormatError) in try reader.record() }
        message.authorities = try (0..<counts[2]).map { _ throws(DNSFormatError) in try reader.record() }
        message.additionals = try (0..<counts[3]).map { _ throws(DNSFormatError) in try reader.record() }
        return message
    }

    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        mutating func u8() throws(DNSFormatError) -> UInt8 {
            guard offset < bytes.count else { throw .truncated }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func u16() throws(DNSFormatError) -> UInt16 {
            UInt16(try u8()) << 8 | UInt16(try u8())
        }

        mutating func u32() throws(DNSFormatError) -> UInt32 {
            UInt32(try u16()) << 16 | UInt32(try u16())
        }

        mutating func take(_ count: Int) throws(DNSFormatError) -> [UInt8] {
            guard count >= 0, offset + count <= bytes.count else { throw .truncated }
            defer { offset += count }
            return Array(bytes[offset..<offset + count])
        }

        /// A name at the current offset, following compression pointers: each must point
        /// before the label that holds it, so a chain of them always ends.
        mutating func name() throws(DNSFormatError) -> DNSName {
            var labels: [String] = []
            var length = 0
            var position = offset
            var resumeAt: Int?
            var jumps = 0
            while true {
                guard position < bytes.count else { throw .truncated }
                let byte = bytes[position]
                switch byte & 0xC0 {
                case 0x00:
                    if byte == 0 {
                        offset = resumeAt ?? position + 1
                        return DNSName(labels: labels)
                    }
                    let count = Int(byte)
                    guard position + 1 + count <= bytes.count else { throw .truncated }
                    length += count + 1
                    guard length <= 255 else { throw .badName }
                    labels.append(String(decoding: bytes[(position + 1)..<(position + 1 + count)], as: UTF8.self))
                    position += 1 + count
                case 0xC0:
                    guard position + 1 < bytes.count else { throw .truncated }
                    let target = Int(byte & 0x3F) << 8 | Int(bytes[position + 1])
                    jumps += 1
                    guard target < position, jumps <= 64 else { throw .badPointer }
                    if resumeAt == nil { resumeAt = position + 2 }
                    position = target
                default:
                    throw .badName
                }
            }
        }

        mutating func record() throws(DNSFormatError) -> DNSRecord {
            let owner = try name()
            let type = DNSRecordType(rawValue: try u16())
            let klass = try u16()
            let ttl = try u32()
            let length = Int(try u16())
            guard offset + length <= bytes.count else { throw .truncated }
            let end = offset + length
            let data: DNSRecordData
            switch type {
            case .ptr:
                data = .ptr(try name())
            case .srv:
                guard length >= 7 else { throw .badRecord(type) }
                let (priority, weight, port) = (try u16(), try u16(), try u16())
                data = .srv(priority: priority, weight: weight, port: port, target: try name())
            case .txt:
                var strings: [String] = []
                while offset < end {
                    let count = Int(try u8())
                    guard offset + count <= end else { throw .badRecord(type) }
                    let string = try take(count)
                    if !string.isEmpty { strings.append(String(decoding: string, as: UTF8.self)) }
                }
                data = .txt(strings)
            case .a:
                guard length == 4 else { throw .badRecord(type) }
                let b = try take(4)
                data = .a(IPv4Address(b[0], b[1], b[2], b[3]))
            case .aaaa:
                guard length == 16 else { throw .badRecord(type) }
                data = .aaaa(try take(16))
            default:
                data = .other(type, try take(length))
            }
            // A name inside the data may end before the record's length says; never after.
            guard offset <= end else { throw .badRecord(type) }
            offset = end
            return DNSRecord(owner, data, ttl: ttl, cacheFlush: klass & 0x8000 != 0)
        }
    }
}
