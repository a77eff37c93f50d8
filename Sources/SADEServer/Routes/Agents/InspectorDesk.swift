import Foundation
import SADEACL
import SADECore
import Synchronization

/// JADE's DummyAgent for the dashboard: an agent named `inspector` on each platform,
/// started when an admin first sends a message there, that sends what the admin wrote
/// and hands each reply to the request waiting for its conversation.
final class InspectorDesk: Sendable {
    /// The agent's name on every platform.
    static let agentName = "inspector"

    private let agents = Mutex<[ObjectIdentifier: Task<Agent, any Error>]>([:])
    private let waiting = Waiting()

    /// What an exchange gave: the message sent, the replies in order, and whether the
    /// time ran out before a final answer.
    struct Exchange: Sendable {
        let sent: ACLMessage
        let replies: [ACLMessage]
        let timedOut: Bool
    }

    /// Sends `message` (its conversation and `reply-with` set here) from `inspector` on
    /// `platform` and collects the replies until one that is not an `agree` (the
    /// final answer), or until `timeout`.
    func exchange(_ message: ACLMessage, on platform: Environment, timeout: Duration) async throws -> Exchange {
        let agent = try await inspector(on: platform)
        let conversation = "inspector-\(UUID().uuidString.prefix(8).lowercased())"
        var message = message
        message.sender = agent.identifier
        message.conversationID = conversation
        message.replyWith = "\(conversation)-1"
        let (replies, sink) = AsyncStream.makeStream(of: ACLMessage.self)
        waiting.byConversation.withLock { $0[conversation] = sink }
        defer { waiting.byConversation.withLock { $0[conversation] = nil } }
        agent.send(message)
        let sent = message
        return await withTaskGroup(of: Exchange?.self) { group in
            group.addTask {
                var collected: [ACLMessage] = []
                for await reply in replies {
                    collected.append(reply)
                    if reply.performative != .agree { break }
                }
                return Exchange(sent: sent, replies: collected, timedOut: false)
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            sink.finish()  // the collector returns what it has
            if let first { return first }
            let collected = await group.next() ?? nil
            return Exchange(sent: sent, replies: collected?.replies ?? [], timedOut: true)
        }
    }

    /// The platform's `inspector`, started on first use.
    private func inspector(on platform: Environment) async throws -> Agent {
        let task = agents.withLock { agents in
            if let task = agents[ObjectIdentifier(platform)] { return task }
            let task = Task { [waiting] in
                let agent = Agent(
                    name: Self.agentName, environment: platform,
                    handlers: [MessageHandler { _, message in waiting.deliver(message) }])
                try await agent.start()
                return agent
            }
            agents[ObjectIdentifier(platform)] = task
            return task
        }
        do {
            return try await task.value
        } catch {
            agents.withLock { $0[ObjectIdentifier(platform)] = nil }  // the next request tries again
            throw error
        }
    }
}

/// The exchanges awaiting replies, by conversation.
private final class Waiting: Sendable {
    let byConversation = Mutex<[String: AsyncStream<ACLMessage>.Continuation]>([:])

    /// Hands `message` to the exchange of its conversation, if one waits.
    func deliver(_ message: ACLMessage) {
        guard let conversation = message.conversationID else { return }
        _ = byConversation.withLock { $0[conversation] }?.yield(message)
    }
}
