import Foundation
import Logging
import SADECore
import SADENotification
import Synchronization

/// The home application's service: takes events in, keeps them, tells each flat's
/// ``HomeAgent`` what they mean and the event bus what happened; confirms messages.
///
/// Routes and the WebSocket bus call it; it holds no HTTP.
public actor HomeService {
    /// Where homes are kept.
    nonisolated public let store: any HomeStore
    /// How the home tells people.
    nonisolated public let alarms: HomeAlarms
    /// Live events for subscribers.
    nonisolated public let events: HomeEventHub
    /// The platform the home agents live on.
    nonisolated public let platform: Environment
    /// The platform's time as dates.
    nonisolated public let clock: OutboxClock
    private var agents: [FlatID: Agent] = [:]
    /// Whether the home agents run here (with several nodes, on one of them).
    private var agentsRunHere: Bool
    /// Flats whose agent is being started (its start awaits the store).
    private var starting: Set<FlatID> = []
    /// Where news for the agents goes when they run on another node.
    private let elsewhere = Mutex<Callback<AgentNews>?>(nil)
    /// Actuator commands waiting for their device to confirm, by context.
    var pending: [UUID: PendingCall] = [:]
    private let logger: Logger

    /// A service over `store` whose agents run on `platform`.
    public init(
        store: any HomeStore, desk: AlertDesk?, platform: Environment, clock: OutboxClock, events: HomeEventHub = HomeEventHub(),
        policy: @escaping @Sendable ([Recipient]) -> EscalationPolicy = HomeAlarms.remind,
        family: @escaping @Sendable (Flat) async throws -> [String] = { _ in [] },
        agentsRunHere: Bool = true, logger: Logger = Logger(label: "sade.home")
    ) {
        self.agentsRunHere = agentsRunHere
        self.store = store
        self.events = events
        self.alarms = HomeAlarms(store: store, desk: desk, events: events, policy: policy, family: family)
        self.platform = platform
        self.clock = clock
        self.logger = logger
    }

    /// Starts a home agent for every flat that has none (from now on, the agents run
    /// here). A flat whose agent cannot start is logged and left for the next news of it.
    ///
    /// - Throws: when the flats cannot be read.
    public func startAgents() async throws {
        agentsRunHere = true
        for flat in try await store.flats() where agents[flat.id] == nil {
            do {
                try await startAgent(for: flat)
            } catch {
                logger.error("a home agent did not start", metadata: ["flat": "\(flat.id)", "error": "\(error)"])
            }
        }
    }

    /// Starts the home agent of `flat` (after creating it), unless it runs or is starting,
    /// or the agents stopped meanwhile.
    public func startAgent(for flat: Flat) async throws {
        guard agents[flat.id] == nil, starting.insert(flat.id).inserted else { return }
        defer { starting.remove(flat.id) }
        let lastActivity = try await store.lastActivity(flat: flat.id) ?? clock.now
        guard agentsRunHere else { return }  // stopped while reading: they run elsewhere now
        let agent = HomeAgent.make(flat: flat, on: platform, alarms: alarms, clock: clock, lastActivity: lastActivity)
        agents[flat.id] = agent
        try await agent.start()
        do { try await alarms.notifyUnsent(in: flat) } catch {
            logger.error("the notifications of a flat's open messages were not checked", metadata: ["flat": "\(flat.id)", "error": "\(error)"])
        }
        // With several nodes (news forwarded), the agent may start on a node taking over from
        // one that died before its news arrived; alone, it heard every batch itself.
        guard elsewhere.withLock({ $0 }) != nil else { return }
        let standing = try await standingHazards(in: flat)
        if !standing.isEmpty { await agent.perceive(HomeFacts(hazards: standing)) }
    }

    /// Detectors that are firing and whose firing no message has answered yet: news the
    /// agent did not hear (it ran on a node that died before the facts reached this one).
    /// A message stored without its notification is sent first (``HomeAlarms/notifyUnsent(in:)``).
    package func standingHazards(in flat: Flat) async throws -> [Hazard] {
        var hazards: [Hazard] = []
        for state in try await store.states(flat: flat.id) where HomeAgent.hazardKinds.contains(state.device.kind.rawValue) {
            guard let latest = state.latest, latest.isOn, let since = state.lastChanged else { continue }
            // An alarm is raised at the agent's time, which may be up to a minute before a gateway's.
            let answered = try await store.messages(flat: flat.id, states: nil, from: since.addingTimeInterval(-60), to: nil)
                .contains { $0.key == HomeAgent.hazardKey(state.device.id) }
            guard !answered else { continue }
            hazards.append(Hazard(device: state.device.id, kind: state.device.kind.rawValue, room: flat.room(state.device.room)?.name ?? "flat", time: since))
        }
        return hazards
    }

    /// Stops every home agent (from now on, they run elsewhere).
    public func stopAgents() async {
        agentsRunHere = false
        let running = agents
        agents = [:]  // before the awaits: a start meanwhile is not lost from the list
        for agent in running.values { await agent.stop() }
    }

    /// The home agent of `flat`, if it runs.
    public func agent(of flat: FlatID) -> Agent? { agents[flat] }

    /// Creates a flat and starts its agent (here, or where the agents run).
    public func createFlat(_ plan: FlatPlan) async throws -> Flat {
        let flat = try await store.createFlat(plan)
        if agentsRunHere { try await startAgent(for: flat) } else { elsewhere.withLock { $0 }?(.flatAdded(flat.id)) }
        return flat
    }

    /// Records `events` of `flat` all-or-nothing (every device must be the flat's, no
    /// event more than a minute in the future), then tells the agent and the bus.
    @discardableResult
    public func ingest(_ batch: [StateEvent], flat id: FlatID) async throws(HomeError) -> [RecordedEvent] {
        let flat = try await store.flat(id)
        let now = clock.now
        for (index, event) in batch.enumerated() {
            guard flat.device(event.device) != nil else {
                throw .invalidValue(field: "events[\(index)].device_id", reason: "no device \(event.device) in flat \(id)")
            }
            guard event.time.timeIntervalSince(now) <= 60 else {
                throw .invalidValue(field: "events[\(index)].time", reason: "is in the future (after \(now))")
            }
        }
        let before = Dictionary(uniqueKeysWithValues: try await store.states(flat: id).map { ($0.device.id, $0) })
        let occupancyBefore = try await store.occupancy(flat: id)
        let recorded = try await store.record(batch)
        let facts = Self.facts(of: batch, in: flat, before: before)
        if !facts.isEmpty {
            if agentsRunHere { await perceive(facts, in: flat) } else { elsewhere.withLock { $0 }?(.facts(flat: id, facts)) }
        }
        if events.isHeard { publish(batch, of: flat, before: before) }
        confirmCalls(batch)
        if let occupancy = try await store.occupancy(flat: id), occupancy != occupancyBefore { events.publish(.occupancyChanged(occupancy)) }
        return recorded
    }

    /// Has `handler` told what the agents must hear when they run on another node (the
    /// agents run on one node of several: the one that evaluates).
    nonisolated package func forward(to handler: @escaping @Sendable (AgentNews) -> Void) {
        elsewhere.withLock { $0 = Callback(handler) }
    }

    /// Tells the agents here what another node learnt: a batch's facts, a new flat.
    package func receive(_ news: AgentNews) async {
        guard agentsRunHere else { return }
        switch news {
        case .facts(let flat, let facts):
            do { await perceive(facts, in: try await store.flat(flat)) } catch {
                logger.error("news of a flat that cannot be read was not heard", metadata: ["flat": "\(flat)", "error": "\(error)"])
            }
        case .flatAdded(let id):
            do {
                if agents[id] == nil { try await startAgent(for: try await store.flat(id)) }
            } catch {
                logger.error("the home agent of a flat made on another node did not start", metadata: ["flat": "\(id)", "error": "\(error)"])
            }
        }
    }

    /// Tells the flat's agent what a batch means, starting the agent first when it does
    /// not run (its start failed, or the flat is new to this node).
    private func perceive(_ facts: HomeFacts, in flat: Flat) async {
        if agents[flat.id] == nil {
            do { try await startAgent(for: flat) } catch {
                logger.error("a home agent did not start; a batch's news is lost", metadata: ["flat": "\(flat.id)", "error": "\(error)"])
            }
        }
        await agents[flat.id]?.perceive(facts)
    }

    /// Resolves the actuator calls waiting here that a state another node took confirms.
    package func confirmCall(by event: StateEvent) {
        confirmCalls([event])
    }

    /// A person confirms a message.
    public func confirm(message id: Int64, by person: String) async throws -> HomeMessage {
        try await alarms.confirm(id, by: person, at: clock.now)
    }

    /// What `batch` means for the agent: detectors that went from clear to detected,
    /// batteries that got worse, the newest resident activity.
    static func facts(of batch: [StateEvent], in flat: Flat, before: [DeviceID: DeviceState]) -> HomeFacts {
        var facts = HomeFacts()
        var value: [DeviceID: Double] = before.compactMapValues { $0.latest?.value }
        var battery: [DeviceID: Int] = before.compactMapValues(\.battery)
        for event in batch.sorted(by: { $0.time < $1.time }) {
            guard let device = flat.device(event.device) else { continue }
            let wasOn = (value[event.device] ?? 0) >= 0.5
            value[event.device] = event.value
            if HomeAgent.hazardKinds.contains(device.kind.rawValue), event.isOn, !wasOn {
                facts.hazards.append(Hazard(device: device.id, kind: device.kind.rawValue, room: flat.room(device.room)?.name ?? "flat", time: event.time))
            }
            if device.kind.isResidentActivity, event.isOn, event.time > facts.lastActivity ?? .distantPast { facts.lastActivity = event.time }
            if let percent = event.battery {
                let previous = battery[event.device].map(BatteryState.init(percent:)) ?? .ok
                let now = BatteryState(percent: percent)
                battery[event.device] = percent
                let worse = now == .empty ? previous != .empty : now == .weak && previous == .ok
                if worse {
                    facts.batteries.append(BatteryReport(device: device.id, name: device.name, state: now, percent: percent, time: event.time))
                }
            }
        }
        return facts
    }

    /// Tells subscribers of each event; an event without a battery reading carries the
    /// device's last known charge, as its state in the store does.
    private func publish(_ batch: [StateEvent], of flat: Flat, before: [DeviceID: DeviceState]) {
        var latest = before.compactMapValues(\.latest)
        var battery = before.compactMapValues(\.battery)
        for var event in batch {
            guard let device = flat.device(event.device) else { continue }
            if let percent = event.battery { battery[event.device] = percent } else { event.battery = battery[event.device] }
            events.publish(.stateChanged(flat: flat.id, device: device, old: latest[event.device], new: event))
            latest[event.device] = event
        }
    }
}

/// What a home service whose agents run on another node tells that node.
package enum AgentNews: Hashable, Sendable, Codable {
    /// What a batch of a flat's events means for its agent.
    case facts(flat: FlatID, HomeFacts)
    /// A flat was made: start its agent.
    case flatAdded(FlatID)
}

extension HomeAgent {
    /// The key of a detector's safety alarm: one open alarm per detector.
    public static func hazardKey(_ device: DeviceID) -> String { "hazard:\(device)" }

    /// The detectors whose firing is an alarm at once.
    public static let hazardKinds: Set<String> = Set([DeviceKind.smoke, .gas, .water, .fall].map(\.rawValue))
}
