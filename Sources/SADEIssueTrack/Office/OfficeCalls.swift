import Foundation
import Logging
import SADEPostgres
import Synchronization

/// The issue track office's calls between nodes sharing a database: a node where the
/// office is closed sends what needs the agents (``OfficeCall``) with `NOTIFY`; the node
/// where it is open answers, and the answer comes back the same way. A call nobody
/// answers in time — no office open anywhere yet (a node taking over), or the one open
/// died — fails as ``IssueTrackError/unavailable(_:)``, for the client to try again.
public final class OfficeCalls: Sendable {
    /// The notification channel.
    public static let channel = "sade_issuetrack"

    /// What one node tells another.
    enum Message: Codable, Sendable {
        case call(id: UUID, from: String, OfficeCall)
        case answer(id: UUID, to: String, OfficeAnswer)
    }

    private let relay: NodeEventRelay<Message>
    private let node: String
    /// How long a call waits for its answer (a result report waits up to 10 s on the office).
    let patience: Duration
    private let waiting = Waiting()
    private let tasks = Mutex<[Task<Void, Never>]>([])

    /// Calls between `office` on this node (`node`) and the other nodes' on `pool`'s
    /// database; the office forwards through it while closed here. Nothing is sent or
    /// heard until ``start()``.
    public init(pool: PostgresPool, office: IssueTrackOffice, node: String, patience: Duration = .seconds(15), logger: Logger) async {
        self.node = node
        self.patience = patience
        let answers = Answers()
        let waiting = self.waiting
        relay = NodeEventRelay(pool: pool, channel: Self.channel, node: node, logger: logger) { message in
            switch message {
            case .call(let id, let from, let call):
                // Answered off the listening loop: a result report waits for the reporter's agent.
                Task {
                    guard let answer = await office.answer(call) else { return }  // closed here: the open office answers
                    answers.relay.withLock { $0 }?.enqueue(.answer(id: id, to: from, answer), vital: true)
                }
            case .answer(let id, let to, let answer) where to == node:
                waiting.resume(id, with: answer)
            case .answer:
                break
            }
        }
        answers.relay.withLock { $0 = relay }
        await office.forwardCalls { [weak self] call throws(IssueTrackError) in
            guard let self else { throw .unavailable("this node is stopping") }
            return try await self.call(call)
        }
    }

    /// Starts sending and listening; returns once listening, so no answer is missed.
    public func start() async {
        let relay = self.relay
        let listening = await relay.listen()
        tasks.withLock { tasks in
            tasks.append(Task { await relay.send() })
            tasks.append(Task { await relay.receive(listening) })
        }
    }

    /// Stops sending and listening; calls waiting fail as unavailable.
    public func stop() async {
        for task in tasks.withLock({ tasks in defer { tasks = [] }; return tasks }) { task.cancel() }
        waiting.resumeAll()
    }

    /// Sends `call` to the node where the office is open and waits for its answer.
    ///
    /// - Throws: ``IssueTrackError/unavailable(_:)`` when no answer comes within ``patience``.
    func call(_ call: OfficeCall) async throws(IssueTrackError) -> OfficeAnswer {
        let id = UUID()
        let answer = await withCheckedContinuation { (continuation: CheckedContinuation<OfficeAnswer?, Never>) in
            waiting.add(id, continuation)
            relay.enqueue(.call(id: id, from: node, call), vital: true)
            Task { [waiting, patience] in
                try? await Task.sleep(for: patience)
                waiting.resume(id, with: nil)
            }
        }
        guard let answer else { throw .unavailable("no node runs the issue track office now (one takes it over within the lease period)") }
        return answer
    }
}

/// The calls waiting for an answer, each resumed once: by its answer, its timeout or a stop.
private final class Waiting: Sendable {
    private let continuations = Mutex<[UUID: CheckedContinuation<OfficeAnswer?, Never>]>([:])

    func add(_ id: UUID, _ continuation: CheckedContinuation<OfficeAnswer?, Never>) {
        continuations.withLock { $0[id] = continuation }
    }

    func resume(_ id: UUID, with answer: OfficeAnswer?) {
        continuations.withLock { $0.removeValue(forKey: id) }?.resume(returning: answer)
    }

    func resumeAll() {
        for waiter in continuations.withLock({ waiting in defer { waiting = [:] }; return waiting.values }) { waiter.resume(returning: nil) }
    }
}

/// The relay answers go out on, set once it is made (its receiving closure answers through it).
private final class Answers: Sendable {
    let relay = Mutex<NodeEventRelay<OfficeCalls.Message>?>(nil)
}
