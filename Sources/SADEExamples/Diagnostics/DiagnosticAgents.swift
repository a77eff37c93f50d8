import SADEACL
import SADECore

/// Agents a standalone platform runs so that other processes have someone to talk
/// to (`sade platform`): an echo for connectivity checks and Contract Net bidders.
public enum DiagnosticAgents {
    /// An agent named `echo` (or `name`) that answers every `request` with an `inform`
    /// carrying the same content (JADE's DummyAgent's favourite partner); it offers the
    /// service `echo` (type `echo`, FIPA Request) in the platform's DF.
    public static func echo(on platform: Environment, named name: String = "echo") -> Agent {
        Agent(name, on: platform) {
            ServiceDescription(name: "echo", type: "echo", protocols: ["fipa-request"])
            MessageHandler.on(.request) { agent, message in
                agent.send(message.makeReply(.inform, content: message.content))
            }
        }
    }

    /// `count` Contract Net participants, `bidder-1` … `bidder-N`: each proposes a price
    /// of 10 × its number and, when accepted, informs `(done :price P)`; the last one
    /// always refuses with `(busy)`. Each offers the service `bidder-N` (type `bidding`,
    /// FIPA Contract Net) in the platform's DF.
    public static func bidders(count: Int, on platform: Environment) -> [Agent] {
        guard count > 0 else { return [] }
        return (1...count).map { number in
            Agent("bidder-\(number)", on: platform) {
                ServiceDescription(name: "bidder-\(number)", type: "bidding", protocols: ["fipa-contract-net"])
                ContractNetResponder { _, _ in
                    number == count ? .refuse("(busy)") : .propose("\(number * 10)")
                } perform: { _, _ in
                    "(done :price \(number * 10))"
                }
            }
        }
    }
}
