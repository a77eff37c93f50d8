import Foundation
import SADEACL
import SADETestSupport
import SADETestTiming
import Testing

@Suite("FIPA string codec: hostile and random input", .timeLimit(.minutes(5)), .timed)
struct ACLStringCodecFuzzTests {
    let codec = ACLStringCodec()

    /// The seeds: messages that use every part of the syntax.
    static let seeds: [String] = [
        try! ACLStringCodec().encode(ACLMessageTests.everyParameter),
        #"(request :sender (agent-identifier :name a@p :addresses (sequence tcp://h:1) :resolvers (sequence (agent-identifier :name ams@p))) :receiver (set (agent-identifier :name "b c")) :content ((action (agent-identifier :name df@p) (register #4"a)\"b 1.5e3 -7))) :reply-by 20001205T083000000Z :X-k "v\\w")"#,
        "(inform\n :content \"line\\nbreak \\\"q\\\" ü\"\n :reply-by +00000001T000000000 :language fipa-sl)",
    ]

    /// Random edits of a valid message: byte flips, deletions, insertions of syntax
    /// characters, duplicated and swapped slices.
    static func mutate(_ bytes: [UInt8], _ random: inout SplitMix64) -> [UInt8] {
        var bytes = bytes
        let alphabet = Array("()\":#\\ \n0123456789TZ+-.e@xX-é".utf8) + [0x00, 0x80, 0xFF, 0xC3]
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            guard !bytes.isEmpty else { break }
            let at = Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<5, using: &random) {
            case 0: bytes[at] = alphabet.randomElement(using: &random)!
            case 1: bytes.remove(at: at)
            case 2: bytes.insert(alphabet.randomElement(using: &random)!, at: at)
            case 3:
                let end = min(bytes.count, at + Int.random(in: 1...20, using: &random))
                bytes.insert(contentsOf: bytes[at..<end], at: Int.random(in: 0...bytes.count, using: &random))
            default:
                bytes[at] = UInt8.random(in: 0...255, using: &random)
            }
        }
        return bytes
    }

    @Test("thousands of mutated messages either parse or throw ACLParseError, and what parses prints and reads back")
    func mutations() throws {
        var random = SplitMix64(seed: 0x5ADE_AC1)
        var parsed = 0, refused = 0
        for round in 0..<3000 {
            let seed = Array(Self.seeds[round % Self.seeds.count].utf8)
            let input = Self.mutate(seed, &random)
            do {
                let message = try codec.decode(input)
                parsed += 1
                if let text = try? codec.encode(message) as String {  // X- names parsed may not re-encode
                    #expect(try codec.decode(text) == message, "re-read of \(text)")
                }
            } catch {
                refused += 1
                #expect(error.offset >= 0 && error.offset <= input.count)
                #expect(error.line >= 1 && error.column >= 1)
            }
        }
        #expect(parsed > 50 && refused > 1000, "parsed \(parsed), refused \(refused)")
    }

    @Test("every truncation of a valid message is refused with an error at or before its end")
    func truncations() throws {
        for seed in Self.seeds {
            let bytes = Array(seed.utf8)
            for length in 0..<bytes.count {
                let prefix = Array(bytes[..<length])
                #expect(throws: ACLParseError.self, "prefix of \(length) bytes") { try codec.decode(prefix) }
            }
        }
    }

    @Test("random bytes and random syntax soup never crash the parser")
    func garbage() {
        var random = SplitMix64(seed: 42)
        let soup = Array("()\"#:\\ abc12T.+-@\n".utf8)
        for round in 0..<2000 {
            let count = Int.random(in: 0..<200, using: &random)
            let bytes: [UInt8] =
                round.isMultiple(of: 2)
                ? (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
                : [UInt8(ascii: "(")] + (0..<count).map { _ in soup.randomElement(using: &random)! }
            _ = try? codec.decode(bytes)
            _ = try? codec.decodeAll(bytes)
            _ = try? ACLExpression.parseSequence(String(decoding: bytes, as: UTF8.self))
        }
    }

    @Test("random messages round-trip exactly")
    func randomMessages() throws {
        var random = SplitMix64(seed: 7)
        let pieces = ["a", "", " ", "\"", "\\", "(", ")", "é", "\n", "x-y", "12", ":k", "#2\"", "𝄞", "T", "@"]
        func text() -> String {
            (0..<Int.random(in: 0...5, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
        }
        func maybe() -> String? { Bool.random(using: &random) ? text() : nil }
        func agent(_ depth: Int = 0) -> AgentIdentifier {
            AgentIdentifier(
                name: text(), addresses: (0..<Int.random(in: 0...2, using: &random)).map { _ in text() },
                resolvers: depth < 2 ? (0..<Int.random(in: 0...1, using: &random)).map { _ in agent(depth + 1) } : [])
        }
        for _ in 0..<500 {
            let message = ACLMessage(
                Performative.allCases.randomElement(using: &random)!,
                sender: Bool.random(using: &random) ? agent() : nil,
                receivers: (0..<Int.random(in: 0...3, using: &random)).map { _ in agent() },
                replyTo: (0..<Int.random(in: 0...2, using: &random)).map { _ in agent() },
                content: maybe(), language: maybe(), encoding: maybe(), ontology: maybe(),
                interactionProtocol: maybe(), conversationID: maybe(), replyWith: maybe(), inReplyTo: maybe(),
                replyBy: Bool.random(using: &random)
                    ? Date(timeIntervalSince1970: Double(Int64.random(in: -62_000_000_000_000...253_000_000_000_000, using: &random)) / 1000)
                    : nil,
                userDefined: Bool.random(using: &random) ? ["X-" + String(Int.random(in: 0...9, using: &random)): text()] : [:])
            let bytes: [UInt8] = try codec.encode(message)
            #expect(try codec.decode(bytes) == message, "\(String(decoding: bytes, as: UTF8.self))")
        }
    }
}
