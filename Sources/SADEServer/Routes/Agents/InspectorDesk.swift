import Foundation
import SADEACL
import SADECore
import Synchronization

/// JADE's DummyAgent for the dashboard: an agent named `inspector:dashboard` on each
/// platform, started when an admin first sends a message there, that sends what the
/// admin wrote and hands each reply to the request waiting for its conversation.
final class InspectorDesk: Sendable {
    /// The agent's name on every platform: with a `:`, which no record identifier has
    /// (an issue track employee's agent is named by the employee's id).
    static let agentName = "inspector:dashboard"

    private let agents = Mutex<[ObjectIdentifier: Task<Agent, any Error>]>([:])
    private let waiting: Waiting

    /// A desk whose messages are stamped by `now`.
    init(now: @escaping @Sendable () -> Date) {
        waiting = Waiting(now: now)
    }

    /// A message and when the server saw it.
    struct Stamped: Sendable {
        let message: ACLMessage
        let at: Date
    }

    /// What an exchange gave: the message sent, the replies in order, and whether the
    /// time ran out before a final answer.
    struct Exchange: Sendable {
        let sent: Stamped
        let replies: [Stamped]
        let timedOut: Bool
    }

    /// Sends `message` (its conversation and `reply-with` set here) from the inspector
    /// on `platform` and collects the replies until one that is not an `agree` (the
    /// final answer), or until `timeout`.
    func exchange(_ message: ACLMessage, on platform: Environment, timeout: Duration) async throws -> Exchange {
        let agent = try await inspector(on: platform)
        let conversation = "inspector-\(UUID().uuidString.prefix(8).lowercased())"
        var message = message
        message.sender = agent.identifier
        message.conversationID = conversation
        message.replyWith = "\(conversation)-1"
        let (replies, sink) = AsyncStream.makeStream(of: Stamped.self)
        waiting.byConversation.withLock { $0[conversation] = sink }
        defer { waiting.byConversation.withLock { $0[conversation] = nil } }
        let sent = Stamped(message: message, at: waiting.now())
        agent.send(message)
        return await withTaskGroup(of: Exchange?.self) { group in
            group.addTask {
                var collected: [Stamped] = []
                for await reply in replies {
                    collected.append(reply)
                    if reply.message.performative != .agree { break }
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

    /// The platform's inspector, started on first use, and again if it was stopped.
    private func inspector(on platform: Environment) async throws -> Agent {
        let key = ObjectIdentifier(platform)
        let task = agents.withLock { agents in
            if let task = agents[key] { return task }
            let task = Task { [waiting] in
                let agent = Agent(
                    name: Self.agentName, environment: platform,
                    handlers: [MessageHandler { agent, message in waiting.deliver(message, to: agent.identifier) }])
                try await agent.start()
                return agent
            }
            agents[key] = task
            return task
        }
        do {
            let agent = try await task.value
            guard await agent.state == .stopped else { return agent }
            forget(task, of: key)  // stopped from elsewhere: the next request starts another
            return try await inspector(on: platform)
        } catch {
            forget(task, of: key)  // the next request tries again
            throw error
        }
    }

    /// Forgets `task` if it is still the one kept for the platform (another request may
    /// have replaced it already).
    private func forget(_ task: Task<Agent, any Error>, of key: ObjectIdentifier) {
        agents.withLock { agents in
            if agents[key] == task { agents[key] = nil }
        }
    }
}

/// The exchanges awaiting replies, by conversation.
private final class Waiting: Sendable {
    let byConversation = Mutex<[String: AsyncStream<InspectorDesk.Stamped>.Continuation]>([:])
    let now: @Sendable () -> Date

    init(now: @escaping @Sendable () -> Date) {
        self.now = now
    }

    /// Hands `message` to the exchange of its conversation, if one waits — unless the
    /// inspector (`inspector`) sent it: a message it wrote to itself is no reply.
    func deliver(_ message: ACLMessage, to inspector: AgentIdentifier) {
        guard let conversation = message.conversationID, message.sender != inspector else { return }
        _ = byConversation.withLock { $0[conversation] }?.yield(InspectorDesk.Stamped(message: message, at: now()))
    }
}
