import Foundation
import SADEACL

/// `acl`: printing and parsing the FIPA string form, against the JSON codec on the
/// same message (Foundation's JSON coders, the usual way to put a struct on the wire).
struct ACLSuite: BenchSuite {
    let name = "acl"
    let workload = "print and parse the ACL string form (fipa00070) of a typical request; baseline: the JSON codec"

    /// A request as agents exchange them: addressed sender and receiver, content in
    /// FIPA-SL, conversation parameters, a deadline and a user-defined parameter.
    static let message = ACLMessage(
        .request,
        sender: AgentIdentifier(name: "collector@ward-3", addresses: ["tcp://10.0.0.5:7000"]),
        receivers: [AgentIdentifier(name: "anomalies@ward-3", addresses: ["tcp://10.0.0.5:7000"])],
        content: "((action (agent-identifier :name anomalies@ward-3) (evaluate :patient \"p-17\" :samples 100)))",
        language: "fipa-sl", ontology: "sade-health", interactionProtocol: "fipa-request",
        conversationID: "c-4f1b9e2a", replyWith: "r-1", replyBy: Date(timeIntervalSince1970: 1_760_000_000),
        userDefined: ["X-priority": "high"])

    func run(in context: BenchContext) async throws -> [BenchFigure] {
        let count = context.size(200_000, quick: 2_000)
        let string = ACLStringCodec(), json = ACLJSONCodec()
        let stringBytes: [UInt8] = try string.encode(Self.message)
        let jsonBytes = try json.encode(Self.message)
        guard try string.decode(stringBytes) == Self.message, try json.decode(jsonBytes) == Self.message else {
            throw BenchError.unexpected("a codec does not give the message back")
        }
        let ours = try await context.measure {
            ["print": try Self.rate(count) { _ = try string.encode(Self.message) as [UInt8] },
             "parse": try Self.rate(count) { _ = try string.decode(stringBytes) }]
        }
        let bare = try await context.measure {
            ["print": try Self.rate(count / 4) { _ = try json.encode(Self.message) },
             "parse": try Self.rate(count / 4) { _ = try json.decode(jsonBytes) }]
        }
        return [
            context.figure("print (encode) \(stringBytes.count) B", ours["print"], unit: "msg/s", baseline: bare["print"],
                           baselineName: "JSON codec", target: "≥ 500,000"),
            context.figure("parse (decode) \(stringBytes.count) B", ours["parse"], unit: "msg/s", baseline: bare["parse"],
                           baselineName: "JSON codec", target: "≥ 500,000"),
        ]
    }

    /// Operations per second of `count` calls of `body`.
    private static func rate(_ count: Int, _ body: () throws -> Void) throws -> Double {
        let start = BenchClock.clock.now
        for _ in 0..<count { try body() }
        return Double(count) / (BenchClock.clock.now - start).seconds
    }
}
