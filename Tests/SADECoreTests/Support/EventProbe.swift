import SADEACL
import SADECore

/// Reads an agent's event stream in a test, waiting for the events it expects.
struct EventProbe {
    private var iterator: AsyncStream<AgentEvent>.Iterator
    /// Every event read so far, in order.
    private(set) var seen: [AgentEvent] = []

    init(_ agent: Agent) async {
        iterator = await agent.events().makeAsyncIterator()
    }

    /// Reads events until one satisfies `predicate`; `nil` if the stream ended first.
    mutating func next(where predicate: (AgentEvent) -> Bool) async -> AgentEvent? {
        while let event = await iterator.next() {
            seen.append(event)
            if predicate(event) { return event }
        }
        return nil
    }

    /// Reads events until `event` arrives; `false` if the stream ended first.
    mutating func waitFor(_ event: AgentEvent) async -> Bool {
        await next { $0 == event } != nil
    }

    /// Reads events until every behaviour in `names` has finished, counting those seen
    /// already; `false` if the stream ended first.
    mutating func waitForFinished(_ names: Set<String>) async -> Bool {
        var pending = names.subtracting(seen.compactMap { if case .behaviourFinished(let name) = $0 { name } else { nil } })
        while !pending.isEmpty {
            let event = await next { if case .behaviourFinished(let name) = $0 { pending.contains(name) } else { false } }
            guard case .behaviourFinished(let name) = event else { return false }
            pending.remove(name)
        }
        return true
    }

    /// Reads events until a reasoning cycle's record satisfies `predicate`.
    mutating func nextRecord(where predicate: (ReasoningRecord) -> Bool) async -> ReasoningRecord? {
        let event = await next { event in
            if case .reasoned(let record) = event { return predicate(record) }
            return false
        }
        guard case .reasoned(let record) = event else { return nil }
        return record
    }

    /// Reads events until a received message satisfies `predicate`.
    mutating func nextMessage(where predicate: (ACLMessage) -> Bool = { _ in true }) async -> ACLMessage? {
        let event = await next { event in
            if case .messageReceived(let message) = event { return predicate(message) }
            return false
        }
        guard case .messageReceived(let message) = event else { return nil }
        return message
    }
}
