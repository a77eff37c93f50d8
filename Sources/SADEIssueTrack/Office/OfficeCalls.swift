import Foundation
import Logging
import PostgresNIO
import SADEPostgres
import Synchronization

/// The issue track office's calls between nodes sharing a database. A node where the
/// office is closed writes what needs the agents (an ``OfficeCall``) into
/// `issuetrack_call` and says so with `NOTIFY`; the node where the office is open takes
/// the call — one office only, whatever happens: the row is claimed with
/// `taken_by IS NULL` — answers it into the row and says so back. Calls and answers
/// are any size (the notifications carry only the call's id).
///
/// A call nobody takes within ``patience`` (no office open anywhere: a node taking it
/// over) is withdrawn — claimed as `nobody`, so no office runs it later — and fails as
/// ``IssueTrackError/unavailable(_:)`` for the client to try again. One taken and not
/// answered in time (the office's node died on it) fails the same way.
public final class OfficeCalls: Sendable {
    /// The notification channel.
    public static let channel = "sade_issuetrack"

    /// What one node tells the others: a call waits in the table, or its answer does.
    enum Message: Codable, Sendable {
        case call(UUID)
        case answered(UUID, to: String)
    }

    private let relay: NodeEventRelay<Message>
    private let pool: PostgresPool
    private let node: String
    private let logger: Logger
    /// How long a call waits to be taken, and then to be answered.
    let patience: Duration
    private let waiting: Waiting
    private let taker: Taker
    private let tasks = Mutex<[Task<Void, Never>]>([])
    private weak let office: IssueTrackOffice?

    /// Calls between `office` on this node (`node`) and the other nodes' on `pool`'s
    /// database; the office forwards through it while closed here. This node takes
    /// calls only while `answering` says so (the node holds the singletons' lease, as
    /// well as having the office open). Nothing is sent or heard until ``start()``.
    public init(
        pool: PostgresPool, office: IssueTrackOffice, node: String, patience: Duration = .seconds(15), logger: Logger,
        answering: @escaping @Sendable () -> Bool = { true }
    ) async throws(IssueTrackError) {
        do {
            try await pool.migrate("issuetrack", PostgresCompanyStore.migrations)
        } catch {
            throw IssueTrackError(error)
        }
        self.pool = pool
        self.node = node
        self.patience = patience
        self.logger = logger
        self.office = office
        let taker = Taker(pool: pool, node: node, patience: patience, logger: logger)
        let waiting = Waiting()
        self.waiting = waiting
        self.taker = taker
        relay = NodeEventRelay(pool: pool, channel: Self.channel, node: node, logger: logger) { [weak office] message in
            switch message {
            case .call(let id):
                guard let office, answering() else { return }
                // Answered off the listening loop: a result report waits for the reporter's agent.
                Task { await taker.take(id, office: office) }
            case .answered(let id, let to) where to == node:
                waiting.resume(id, answered: true)
            case .answered:
                break
            }
        }
        taker.relay.withLock { $0 = relay }
        await office.forwardCalls { [weak self] call throws(IssueTrackError) in
            guard let self else { throw .unavailable("this node is stopping") }
            return try await self.call(call)
        }
    }

    /// Starts sending and listening; returns once listening, so no answer is missed.
    /// Calls left behind by nodes that died on them over an hour ago are deleted.
    public func start() async {
        _ = try? await query("DELETE FROM issuetrack_call WHERE made_at < now() - interval '1 hour'")
        let relay = self.relay
        let listening = await relay.listen()
        tasks.withLock { tasks in
            tasks.append(Task { await relay.send() })
            tasks.append(Task { await relay.receive(listening) })
        }
    }

    /// Stops sending and listening: calls waiting fail as unavailable, and the office
    /// forwards nothing more.
    public func stop() async {
        await office?.forwardCalls(nil)
        for task in tasks.withLock({ tasks in defer { tasks = [] }; return tasks }) { task.cancel() }
        waiting.resumeAll()
        taker.relay.withLock { $0 = nil }  // the relay and the taker held each other
    }

    /// Sends `call` to the node where the office is open and waits for its answer.
    ///
    /// - Throws: ``IssueTrackError/unavailable(_:)`` when no office takes it, or answers
    ///   it, within ``patience`` each; any error the office answered with.
    func call(_ call: OfficeCall) async throws(IssueTrackError) -> OfficeAnswer {
        let id = UUID()
        let body = try Self.encoded(call)
        try await query("INSERT INTO issuetrack_call (id, caller, body) VALUES (\(id), \(node), \(body))")
        var answered = await waiting.wait(id, within: patience) { relay.enqueue(.call(id), vital: true) }
        if !answered {
            // Withdrawn unless an office took it meanwhile: then it may still answer.
            let withdrawn = try await query(
                "UPDATE issuetrack_call SET taken_by = 'nobody' WHERE id = \(id) AND taken_by IS NULL RETURNING id")
            guard withdrawn.isEmpty else {
                _ = try? await query("DELETE FROM issuetrack_call WHERE id = \(id)")
                throw .unavailable("no node runs the issue track's office now (one takes it over within the lease period)")
            }
            // Taken: its answer may be in already (its notice came between the two waits).
            let early = try await query("SELECT answer FROM issuetrack_call WHERE id = \(id) AND answer IS NOT NULL")
            if early.isEmpty { answered = await waiting.wait(id, within: patience) {} }
        }
        let rows = try await query("DELETE FROM issuetrack_call WHERE id = \(id) RETURNING answer")
        guard let text = try Self.decode(String?.self, rows.first) ?? nil else {
            throw .unavailable("the node running the issue track's office took the call and did not answer in time: it may have stopped, or done it")
        }
        do {
            return try JSONDecoder().decode(OfficeAnswer.self, from: Data(text.utf8))
        } catch {
            throw .storage("an unreadable answer from the office: \(error)")
        }
    }

    private func query(_ query: PostgresQuery) async throws(IssueTrackError) -> [PostgresRow] {
        do { return try await pool.query(query) } catch { throw IssueTrackError(error) }
    }

    static func decode<T: PostgresDecodable>(_ type: T.Type, _ row: PostgresRow?) throws(IssueTrackError) -> T? {
        guard let row else { return nil }
        do { return try row.decode(T.self) } catch { throw IssueTrackError(error) }
    }

    static func encoded(_ value: some Encodable) throws(IssueTrackError) -> String {
        do { return String(decoding: try JSONEncoder().encode(value), as: UTF8.self) } catch { throw .storage("a call could not be encoded: \(error)") }
    }
}

/// The office's side: takes a call (if no other office has), runs it, writes the answer.
private final class Taker: Sendable {
    let pool: PostgresPool
    let node: String
    /// How long a call may wait to be taken.
    let patience: Duration
    let logger: Logger
    /// The relay the answers' notices go out on, set once it is made (cleared at stop).
    let relay = Mutex<NodeEventRelay<OfficeCalls.Message>?>(nil)

    init(pool: PostgresPool, node: String, patience: Duration, logger: Logger) {
        self.pool = pool
        self.node = node
        self.patience = patience
        self.logger = logger
    }

    func take(_ id: UUID, office: IssueTrackOffice) async {
        guard await office.isAnswering else { return }  // closed or opening here: the open office takes it
        do {
            // Only a call still fresh: one whose caller gave up (and told its client 503)
            // without managing to withdraw it, the database away a moment, is never run.
            let rows = try await pool.query(
                """
                UPDATE issuetrack_call SET taken_by = \(node)
                WHERE id = \(id) AND taken_by IS NULL AND made_at > now() - make_interval(secs => \(patience.seconds))
                RETURNING caller, body
                """)
            guard let (caller, body) = try rows.first?.decode((String, String).self) else { return }  // another office took it, or it was withdrawn
            let answer: OfficeAnswer
            do {
                let call = try JSONDecoder().decode(OfficeCall.self, from: Data(body.utf8))
                answer = await office.answer(call) ?? .failed(.unavailable("the office closed on this node while the call came"))
            } catch {
                answer = .failed(.storage("an unreadable call: \(error)"))
            }
            try await pool.query("UPDATE issuetrack_call SET answer = \(try OfficeCalls.encoded(answer)) WHERE id = \(id)")
            relay.withLock { $0 }?.enqueue(.answered(id, to: caller), vital: true)
        } catch {
            logger.warning("an issue-track call from another node was not answered", metadata: ["call": "\(id)", "error": "\(error)"])
        }
    }
}

/// The calls waiting for their answer's notice, each resumed once: by the notice, its
/// timeout or a stop.
private final class Waiting: Sendable {
    private let continuations = Mutex<(waiting: [UUID: (CheckedContinuation<Bool, Never>, Task<Void, Never>?)], stopped: Bool)>(([:], false))

    /// Waits for `id`'s notice at most `limit`, after `send`ing; whether it came. After
    /// ``resumeAll()``, `false` at once.
    func wait(_ id: UUID, within limit: Duration, send: () -> Void) async -> Bool {
        await withCheckedContinuation { continuation in
            let stopped = continuations.withLock { state in
                if !state.stopped { state.waiting[id] = (continuation, nil) }
                return state.stopped
            }
            if stopped {
                continuation.resume(returning: false)
                return
            }
            let timer = Task { [weak self] in
                guard (try? await Task.sleep(for: limit)) != nil else { return }
                self?.resume(id, answered: false)
            }
            let stillWaiting = continuations.withLock { state in
                guard state.waiting[id] != nil else { return false }
                state.waiting[id]?.1 = timer
                return true
            }
            if !stillWaiting { timer.cancel() }
            send()
        }
    }

    func resume(_ id: UUID, answered: Bool) {
        guard let (continuation, timer) = continuations.withLock({ $0.waiting.removeValue(forKey: id) }) else { return }
        timer?.cancel()
        continuation.resume(returning: answered)
    }

    func resumeAll() {
        let all = continuations.withLock { state in
            defer { state = ([:], true) }
            return state.waiting.values
        }
        for (continuation, timer) in all {
            timer?.cancel()
            continuation.resume(returning: false)
        }
    }
}
