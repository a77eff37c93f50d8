import SADEACL
import Synchronization

/// The yellow pages of a platform (FIPA Directory Facilitator): agents register the
/// services they offer, others search by service type, name or properties.
public final class DirectoryFacilitator: Sendable {
    /// Why a directory operation was refused.
    public enum DirectoryError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The agent already has an entry; use `modify`.
        case alreadyRegistered(AgentIdentifier)
        /// The agent has no entry.
        case notRegistered(AgentIdentifier)

        /// A sentence saying what went wrong.
        public var description: String {
            switch self {
            case .alreadyRegistered(let agent): "'\(agent.name)' is already registered in the directory; modify its entry instead"
            case .notRegistered(let agent): "'\(agent.name)' is not registered in the directory"
            }
        }
    }

    private let entries = Mutex<[String: DirectoryEntry]>([:])
    private let observers = Mutex<(next: Int, byToken: [Int: @Sendable () -> Void])>((0, [:]))

    init() {}

    /// Publishes an agent's services.
    public func register(_ entry: DirectoryEntry) throws {
        try entries.withLock { entries in
            guard entries[entry.agent.name] == nil else { throw DirectoryError.alreadyRegistered(entry.agent) }
            entries[entry.agent.name] = entry
        }
        changed()
    }

    /// Withdraws an agent's entry.
    public func deregister(_ agent: AgentIdentifier) throws {
        try entries.withLock { entries in
            guard entries.removeValue(forKey: agent.name) != nil else { throw DirectoryError.notRegistered(agent) }
        }
        changed()
    }

    /// Removes a stopping agent's entry if it has one; no error (and no hashing while
    /// the directory is empty) when it has none.
    func removeEntry(of agent: AgentIdentifier) {
        let removed = entries.withLock { entries in
            !entries.isEmpty && entries.removeValue(forKey: agent.name) != nil
        }
        if removed { changed() }
    }

    /// Replaces an agent's entry.
    public func modify(_ entry: DirectoryEntry) throws {
        try entries.withLock { entries in
            guard entries[entry.agent.name] != nil else { throw DirectoryError.notRegistered(entry.agent) }
            entries[entry.agent.name] = entry
        }
        changed()
    }

    /// Calls `observer` after every change of the entries (a registration, a
    /// modification, a withdrawal, an agent with services stopping), on the thread that
    /// made it: say, to announce the platform's services again on the network. Returns
    /// the token that ``stopObserving(_:)`` takes.
    @discardableResult
    public func observeChanges(_ observer: @escaping @Sendable () -> Void) -> Int {
        observers.withLock { observers in
            observers.next += 1
            observers.byToken[observers.next] = observer
            return observers.next
        }
    }

    /// Forgets the observer `observeChanges` gave `token` for.
    public func stopObserving(_ token: Int) {
        _ = observers.withLock { $0.byToken.removeValue(forKey: token) }
    }

    private func changed() {
        for observer in observers.withLock({ Array($0.byToken.values) }) { observer() }
    }

    /// The entry of `agent`, if registered.
    public func entry(of agent: AgentIdentifier) -> DirectoryEntry? {
        entries.withLock { $0[agent.name] }
    }

    /// The entries offering a service that matches `template`, each with only its
    /// matching services, sorted by agent name; at most `limit` of them.
    public func search(_ template: ServiceTemplate, limit: Int = .max) -> [DirectoryEntry] {
        let found = entries.withLock { entries in
            entries.values.compactMap { entry -> DirectoryEntry? in
                let services = entry.services.filter(template.matches)
                return services.isEmpty ? nil : DirectoryEntry(agent: entry.agent, services: services)
            }
        }
        return Array(found.sorted { $0.agent.name < $1.agent.name }.prefix(max(0, limit)))
    }

    /// The number of registered entries.
    public var count: Int { entries.withLock { $0.count } }
}
