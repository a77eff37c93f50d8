import SADEACL
import Synchronization

/// A sniffer's view of the platform's traffic (JADE's Sniffer): every message a chosen
/// agent sends or receives, as it is routed. Nothing is copied or even looked at while
/// nobody sniffs: routing reads one atomic counter.
extension Environment {
    /// The messages sent or received by the agents named in `agents` (local or full
    /// names), or by every agent if `nil`, from now on — local deliveries, messages
    /// leaving through a transport, messages arriving from one (once, however many of
    /// its receivers are here) and the AMS's failure notices. The stream keeps the
    /// newest `buffer` messages its reader has not taken; it ends, and is forgotten,
    /// when its reader's task is cancelled or the stream is released.
    public func sniff(_ agents: Set<String>? = nil, buffer: Int = 1_000) -> AsyncStream<ACLMessage> {
        let (stream, continuation) = AsyncStream.makeStream(of: ACLMessage.self, bufferingPolicy: .bufferingNewest(max(1, buffer)))
        // Both spellings of an agent here (`Nurse`, `Nurse@ward`): messages name it either way.
        let suffix = "@\(name)"
        let watched = agents.map { names in
            Set(names.flatMap { agent in
                agent.hasSuffix(suffix) ? [agent, String(agent.dropLast(suffix.count))] : agent.contains("@") ? [agent] : [agent, agent + suffix]
            })
        }
        let id = sniffers.add(Sniffer(agents: watched, continuation: continuation))
        continuation.onTermination = { [weak self] _ in self?.sniffers.remove(id) }
        return stream
    }

    /// Hands `message` to the sniffers watching its sender or a receiver.
    @inline(__always)
    func sniffed(_ message: ACLMessage) {
        guard sniffers.count.load(ordering: .relaxed) > 0 else { return }
        sniffers.tell(message)
    }

    /// Like ``sniffed(_:)`` for a message a transport delivers to one `receiver` here:
    /// told once, for the first of its receivers that is on this platform (a transport
    /// hands over one copy per receiver).
    @inline(__always)
    func sniffed(_ message: ACLMessage, arrivingFor receiver: AgentIdentifier) {
        guard sniffers.count.load(ordering: .relaxed) > 0 else { return }
        guard message.receivers.first(where: { localName(of: $0) != nil })?.name ?? receiver.name == receiver.name else { return }
        sniffers.tell(message)
    }
}

/// One reader of ``Environment/sniff(_:buffer:)``.
struct Sniffer: Sendable {
    /// Full and local names of the agents watched; `nil` for all.
    let agents: Set<String>?
    let continuation: AsyncStream<ACLMessage>.Continuation

    func wants(_ message: ACLMessage) -> Bool {
        guard let agents else { return true }
        if let sender = message.sender, agents.contains(sender.name) { return true }
        return message.receivers.contains { agents.contains($0.name) }
    }
}

/// The sniffers of a platform, and how many there are (read on every routing).
final class Sniffers: Sendable {
    let count = Atomic<Int>(0)
    /// The readers with their ids: telling a message copies the array (a reference
    /// count), it builds nothing.
    private let readers = Mutex<(next: Int, list: [(id: Int, sniffer: Sniffer)])>((0, []))

    func add(_ sniffer: Sniffer) -> Int {
        readers.withLock { readers in
            readers.next += 1
            readers.list.append((readers.next, sniffer))
            count.store(readers.list.count, ordering: .relaxed)
            return readers.next
        }
    }

    func remove(_ id: Int) {
        readers.withLock { readers in
            readers.list.removeAll { $0.id == id }
            count.store(readers.list.count, ordering: .relaxed)
        }
    }

    func tell(_ message: ACLMessage) {
        for (_, sniffer) in readers.withLock({ $0.list }) where sniffer.wants(message) {
            sniffer.continuation.yield(message)
        }
    }
}
