import Logging
import Metrics
import SADEACL
import Synchronization

/// An agent platform (SADE4Health's `Environment`): the white pages (AMS) where
/// every started agent is registered, the yellow pages (``directory``, the DF), and
/// in-process message delivery.
///
/// Not a singleton: create as many as you need — each is isolated from the others,
/// which is what tests and multi-tenant servers want.
public final class Environment: Sendable {
    /// The platform's name; agents on it are named `agent@name`.
    public let name: String
    /// The time source of every agent, action and behaviour on the platform.
    public let clock: PlatformClock
    /// The platform's logger; agents add their name as metadata.
    public let logger: Logger
    /// The yellow pages: services offered by agents.
    public let directory: DirectoryFacilitator
    /// The threads the platform's agents run on.
    public let scheduler: AgentScheduler
    /// The white pages: started agents by name (each keeps its state in ``Agent/pagesState``).
    let registry = Mutex<[String: Agent]>([:])
    /// The platform's own agents, `ams` and `df`, answering `fipa-agent-management`
    /// requests over ACL. Not listed among ``agents``.
    let platformAgents = Mutex<[String: Agent]>([:])
    /// Transports to other platforms, consulted in order, and every address the
    /// platform has had: a message naming a former address (say, a failure returned
    /// while a transport shuts down) is still for an agent here.
    let transports = Mutex<(attached: [any MessageTransport], ownAddresses: Set<String>)>(([], []))
    /// Agents alive, messages delivered and failed, mailbox depth.
    let metrics: PlatformMetrics
    /// Who watches the traffic (``sniff(_:buffer:)``).
    let sniffers = Sniffers()

    /// Creates a platform.
    ///
    /// - Parameters:
    ///   - name: the platform's name, the part after `@` in agent names.
    ///   - clock: the clock agents use; pass a ``ManualClock`` in tests.
    ///   - logger: where agents log; swift-log's default handler if omitted.
    ///   - scheduler: the threads agents run on; the process's shared pool if omitted.
    ///   - metrics: where the platform's metrics go (see ``recordMailboxDepth()``); the
    ///     task's swift-metrics factory, or the process's, if omitted.
    public init<C: Clock>(
        name: String = "sade", clock: C, logger: Logger? = nil, scheduler: AgentScheduler = .shared,
        metrics: any MetricsFactory = MetricsSystem.factory
    ) where C.Duration == Duration {
        self.name = name
        self.metrics = PlatformMetrics(platform: name, factory: metrics)
        self.scheduler = scheduler
        self.clock = PlatformClock(clock)
        self.logger = logger ?? Logger(label: "sade.\(name)")
        self.directory = DirectoryFacilitator()
        createPlatformAgents()
    }

    /// Creates a platform on the machine's continuous clock.
    public convenience init(name: String = "sade", logger: Logger? = nil) {
        self.init(name: name, clock: ContinuousClock(), logger: logger)
    }

    /// The identifier of the platform's agent management system, which signs
    /// delivery failures.
    public var amsIdentifier: AgentIdentifier { AgentIdentifier(name: "ams@\(name)") }

    /// The identifier of the platform's directory facilitator.
    public var dfIdentifier: AgentIdentifier { AgentIdentifier(name: "df@\(name)") }

    /// Adds a transport to other platforms; messages to agents with an address it can
    /// reach go through it from now on.
    public func attach(_ transport: any MessageTransport) {
        transports.withLock { transports in
            transports.attached.append(transport)
            transports.ownAddresses.formUnion(transport.addresses)
        }
    }

    /// Removes every transport whose addresses are `addresses` (a transport shutting down).
    public func detachTransport(withAddresses addresses: [String]) {
        transports.withLock { $0.attached.removeAll { $0.addresses == addresses } }
    }

    /// The addresses where this platform can be reached, over every attached transport.
    public var addresses: [String] { transports.withLock { $0.attached.flatMap(\.addresses) } }

    /// DF searches going on to other platforms now (``AgentManagementService``); at most
    /// ``maxFederatedSearches`` at once, the others answered from this DF alone.
    let federatedSearches = Mutex(0)
    static let maxFederatedSearches = 16
    private let federationBound = Mutex<Duration>(.seconds(2))

    /// The longest this platform's DF waits for the others' in a search asked with
    /// `:max-depth` (2 s by default; half of what the request's `reply-by` leaves when less).
    public var federatedSearchBound: Duration {
        get { federationBound.withLock { $0 } }
        set { federationBound.withLock { $0 = newValue } }
    }

    /// Where other platforms were found (by discovery), for receivers named without addresses.
    let foundPlatforms = Mutex<[String: [String]]>([:])

    /// Remembers that platform `name` is reached at `addresses` (`tcp://host:port`): a
    /// message to `agent@name` with no addresses of its own goes there.
    public func learn(_ addresses: [String], ofPlatform name: String) {
        foundPlatforms.withLock { $0[name] = addresses }
    }

    /// Forgets where platform `name` is (it went away).
    public func forget(platform name: String) {
        foundPlatforms.withLock { $0[name] = nil }
    }

    /// The platforms found, with their addresses.
    public var knownPlatforms: [String: [String]] { foundPlatforms.withLock { $0 } }
}
