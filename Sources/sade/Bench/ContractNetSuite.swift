import SADEACL
import SADECore
import SADEExamples

/// `contractnet`: the Jason Contract Net benchmark — one initiator, 11 participants
/// (the last always refuses), n negotiations run concurrently.
struct ContractNetSuite: BenchSuite {
    let name = "contractnet"
    let workload = "1 initiator, 11 participants (one refuses), n = 1 … 146 concurrent Contract Nets (Jason CNP)"

    func run(in context: BenchContext) async throws -> [BenchFigure] {
        let sizes = context.quick ? [1, 10] : [1, 10, 50, 146]
        var figures: [BenchFigure] = []
        for n in sizes {
            let time = try await context.measure { try await Self.negotiations(n) }
            figures.append(
                context.figure("time for n = \(n)", time["ms"], unit: "ms", target: n == 146 ? "≤ 100 (Jason: 15,000–23,000)" : nil))
        }
        return figures
    }

    /// One run: a fresh platform with the bidders; `n` Contract Nets at once from one
    /// initiator, each awarded to the cheapest bidder, which reports its result.
    private static func negotiations(_ n: Int) async throws -> [String: Double] {
        let platform = Environment(name: "bench-cnp")
        let bidders = DiagnosticAgents.bidders(count: 11, on: platform)
        let initiator = Agent(name: "initiator", environment: platform)
        for agent in bidders + [initiator] { try await agent.start() }
        let participants = bidders.map(\.identifier)
        let seconds = try await BenchClock.seconds {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<n {
                    group.addTask {
                        let outcome = try await initiator.contractNet(
                            ACLMessage(.cfp, content: "(task \(index))"), participants: participants,
                            deadline: .seconds(30), resultTimeout: .seconds(30))
                        return outcome.results.count
                    }
                }
                for try await results in group where results != 1 { throw BenchError.unexpected("a Contract Net ended with \(results) results") }
            }
        }
        for agent in bidders + [initiator] { await agent.stop() }
        await platform.shutdown()
        return ["ms": seconds * 1000]
    }
}

/// A workload that did not go as it must, so its figures would mean nothing.
enum BenchError: Error, CustomStringConvertible {
    case unexpected(String)
    case peerFailed(String)

    var description: String {
        switch self {
        case .unexpected(let what): "benchmark workload went wrong: \(what)"
        case .peerFailed(let what): "peer failed: \(what)"
        }
    }
}
