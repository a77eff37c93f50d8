import SADETestTiming
import Testing
@testable import SADENet

@Suite("DNS messages for multicast DNS", .timeLimit(.minutes(5)), .timed)
struct DNSCodecTests {
    static let service: DNSName = "_sade._tcp.local"
    static let instance = service.prepending("beta")

    static var announcement: DNSMessage {
        DNSMessage(
            isResponse: true,
            answers: [
                DNSRecord(service, .ptr(instance), ttl: 4500),
                DNSRecord(instance, .srv(priority: 0, weight: 0, port: 7001, target: "beta-sade.local"), ttl: 120, cacheFlush: true),
                DNSRecord(instance, .txt(["platform=beta", "version=1", "services=issue-solving,echo"]), ttl: 4500, cacheFlush: true),
            ],
            additionals: [DNSRecord("beta-sade.local", .a(IPv4Address(10, 0, 0, 2)), ttl: 120, cacheFlush: true)])
    }

    @Test("a response and a query survive a round trip, names compared regardless of case")
    func roundTrip() throws {
        let bytes = DNSCodec.encode(Self.announcement)
        #expect(try DNSCodec.decode(bytes) == Self.announcement)
        let query = DNSMessage(isResponse: false, questions: [DNSQuestion(Self.service, .ptr, unicastResponse: true)])
        #expect(try DNSCodec.decode(DNSCodec.encode(query)) == query)
        #expect(DNSName("_SADE._TCP.Local.") == Self.service)
        #expect(Set([DNSName("A.local"), DNSName("a.LOCAL")]).count == 1)
    }

    /// A response with one PTR answer whose target is written as `rdata` (a hand-made packet).
    static func packet(ptrData rdata: [UInt8], answers: UInt8 = 1) -> [UInt8] {
        var bytes: [UInt8] = [0, 0, 0x84, 0, 0, 0, 0, answers, 0, 0, 0, 0]
        bytes += [5] + Array("_sade".utf8) + [4] + Array("_tcp".utf8) + [5] + Array("local".utf8) + [0]  // owner at offset 12
        bytes += [0, 12, 0, 1, 0, 0, 0x11, 0x94, 0, UInt8(rdata.count)] + rdata
        return bytes
    }

    @Test("compression pointers are followed backwards only: a name that points at an earlier one reads")
    func compression() throws {
        let message = try DNSCodec.decode(Self.packet(ptrData: [4] + Array("beta".utf8) + [0xC0, 12]))
        #expect(message.answers.first?.data == .ptr(Self.instance))
    }

    @Test("hostile or broken packets are refused with a typed error, never a crash", arguments: [
        ("a pointer to itself", packet(ptrData: [0xC0, 41]), DNSFormatError.badPointer),
        ("a pointer forwards", packet(ptrData: [0xC0, 60]), .badPointer),
        ("a reserved label type", packet(ptrData: [0x80, 1]), .badName),
        ("cut inside the record", Array(packet(ptrData: [4] + Array("beta".utf8) + [0xC0, 12]).dropLast(3)), .truncated),
        ("a header alone, cut", [0, 0, 0x84], .truncated),
        ("more answers than bytes", packet(ptrData: [0xC0, 12], answers: 200), .tooManyEntries),
        ("an A record of 5 bytes", [0, 0, 0x84, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0x61, 0, 0, 1, 0, 1, 0, 0, 0, 1, 0, 5, 1, 2, 3, 4, 5], .badRecord(.a)),
        ("a TXT string past its record", [0, 0, 0x84, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0x61, 0, 0, 16, 0, 1, 0, 0, 0, 1, 0, 2, 9, 0x61], .badRecord(.txt)),
        ("larger than 9000 bytes", [UInt8](repeating: 0, count: 9_001), .tooLarge),
    ] as [(String, [UInt8], DNSFormatError)])
    func malformed(_ what: String, bytes: [UInt8], error: DNSFormatError) {
        #expect(throws: error, "\(what)") { try DNSCodec.decode(bytes) }
    }

    @Test("a chain of pointers, each one name back, is cut off after 64 jumps")
    func longChains() throws {
        // Answer 1 (an unknown type) carries 70 names in its data, each a label and a
        // pointer to the one before; answer 2's owner points at the last of them.
        var chain: [UInt8] = []
        let first = 12 + 11  // after the header and answer 1's root owner, type, class, TTL and length
        chain += [1, 0x61, 0]
        var previous = first
        for _ in 0..<70 {
            let here = first + chain.count
            chain += [1, 0x61, 0xC0 | UInt8(previous >> 8), UInt8(previous & 0xFF)]
            previous = here
        }
        var bytes: [UInt8] = [0, 0, 0x84, 0, 0, 0, 0, 2, 0, 0, 0, 0]
        bytes += [0, 0, 99, 0, 1, 0, 0, 0, 1, UInt8(chain.count >> 8), UInt8(chain.count & 0xFF)] + chain
        bytes += [0xC0 | UInt8(previous >> 8), UInt8(previous & 0xFF), 0, 1, 0, 1, 0, 0, 0, 1, 0, 4, 1, 2, 3, 4]
        #expect(throws: DNSFormatError.badPointer) { try DNSCodec.decode(bytes) }
    }
}
