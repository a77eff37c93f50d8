import SADEACL
import SADECore

/// An agent that keeps every message it receives, for a test to read in order.
struct Inbox {
    let agent: Agent
    private var iterator: AsyncStream<ACLMessage>.Iterator

    /// Starts an agent called `name` on `platform` that records its messages and,
    /// if `echo` is set, answers each `request` with an `inform` of the same content.
    init(_ name: String, on platform: Environment, echo: Bool = false) async throws {
        let (stream, continuation) = AsyncStream.makeStream(of: ACLMessage.self)
        agent = Agent(name: name, environment: platform, handlers: [
            MessageHandler { agent, message in
                continuation.yield(message)
                if echo, message.performative == .request {
                    agent.send(message.makeReply(.inform, content: message.content))
                }
            }
        ])
        iterator = stream.makeAsyncIterator()
        try await agent.start()
    }

    /// The next message received; `nil` only if the test is cancelled.
    mutating func next() async -> ACLMessage? {
        await iterator.next()
    }

    /// The next `count` messages.
    mutating func next(_ count: Int) async -> [ACLMessage] {
        var messages: [ACLMessage] = []
        while messages.count < count, let message = await iterator.next() { messages.append(message) }
        return messages
    }
}
