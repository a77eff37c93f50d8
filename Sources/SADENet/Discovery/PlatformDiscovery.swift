import Foundation
import Logging
import NIOCore
import Synchronization

/// A platform found on the network: what its `_sade._tcp` service says.
public struct DiscoveredPlatform: Sendable, Hashable, Codable {
    /// The platform's name (TXT `platform=`, else the instance name).
    public var name: String
    /// Its transport's port (SRV).
    public var port: Int
    /// Its host's IPv4 addresses (A records of the SRV target).
    public var addresses: [String]
    /// The service types its directory facilitator holds (TXT `services=`).
    public var services: [String]
    /// The protocol version it speaks (TXT `version=`).
    public var version: String?

    /// Where its transport listens: `tcp://address:port` for each address.
    public var transportAddresses: [String] { addresses.map { "tcp://\($0):\(port)" } }
}

/// DNS-SD over multicast DNS for SADE platforms (RFC 6762, RFC 6763): advertises this
/// platform as `<name>._sade._tcp.local` — SRV to its transport's port on
/// `<name>-sade.local`, A records of its addresses, TXT with its name, protocol version and
/// the service types its directory holds —, answers queries for it, announces it (and
/// again when its services change), says goodbye when it stops, and browses for the
/// others: each found platform stays until its records' TTL runs out or it says goodbye.
/// A platform name another host already advertises is refused at start.
public final class PlatformDiscovery: Sendable {
    /// The DNS-SD service type.
    public static let serviceType: DNSName = "_sade._tcp.local"
    /// The TXT `version=` we speak.
    public static let protocolVersion = "1"

    /// What this platform advertises.
    public struct Advertisement: Sendable {
        /// The platform's name (the instance name).
        public var platform: String
        /// Its transport's port.
        public var port: Int
        /// Its IPv4 addresses.
        public var addresses: [IPv4Address]
        /// The service types its directory holds, read at every announcement and answer.
        public var services: @Sendable () -> [String]

        public init(platform: String, port: Int, addresses: [IPv4Address], services: @escaping @Sendable () -> [String] = { [] }) {
            self.platform = platform
            self.port = port
            self.addresses = addresses
            self.services = services
        }
    }

    /// What changed on the network.
    public enum Change: Sendable, Hashable {
        case found(DiscoveredPlatform)
        case updated(DiscoveredPlatform)
        case lost(String)
    }

    private struct Cached {
        var record: DNSRecord
        var received: ContinuousClock.Instant
        var expires: ContinuousClock.Instant
        /// When to ask again, before it expires (RFC 6762 §5.2: at 80 % of its TTL).
        var refresh: ContinuousClock.Instant
    }

    private struct State {
        var cache: [DNSRecord: Cached] = [:]
        var platforms: [String: DiscoveredPlatform] = [:]
        var conflict = false
        var probing = true
        var stopped = false
    }

    /// The most records cached: beyond it new ones are ignored (a hostile peer cannot
    /// grow the cache without bound).
    static let cacheCapacity = 2_048

    private let socket: MulticastDNSSocket
    private let advertisement: Advertisement?
    private let ttl: UInt32
    private let state = Mutex(State())
    private let tasks = Mutex<[Task<Void, Never>]>([])
    /// The announcement waiting for a burst of service changes to end.
    private let pendingAnnouncement = Mutex<Task<Void, Never>?>(nil)
    /// What ``stop()`` undoes besides its own work (an observer of a directory).
    private let stopping = Mutex<[@Sendable () -> Void]>([])
    private let onChange: @Sendable (Change) -> Void
    private let logger: Logger

    /// Opens the mDNS socket, checks that the name is free (three probes 250 ms apart),
    /// announces `advertisement` (if any) and browses; `onChange` hears of platforms found,
    /// updated and lost. `ttl` is how long others keep our records (RFC 6762 suggests 120 s).
    ///
    /// - Throws: ``DiscoveryError/nameTaken(_:)`` when another host advertises the name;
    ///   ``DiscoveryError/socket(_:)`` (or NIO's error) when the socket cannot be opened.
    public static func start(
        advertising advertisement: Advertisement?, ttl: UInt32 = 120, logger: Logger = Logger(label: "sade.discovery"),
        onChange: @escaping @Sendable (Change) -> Void = { _ in }
    ) async throws -> PlatformDiscovery {
        let holder = Mutex<PlatformDiscovery?>(nil)
        let socket = try await MulticastDNSSocket.open(logger: logger) { message, from in
            holder.withLock { $0 }?.handle(message, from: from)
        }
        let discovery = PlatformDiscovery(socket: socket, advertisement: advertisement, ttl: ttl, logger: logger, onChange: onChange)
        holder.withLock { $0 = discovery }
        if let advertisement {
            let instance = serviceType.prepending(advertisement.platform)
            for _ in 0..<3 {
                socket.send(DNSMessage(isResponse: false, questions: [DNSQuestion(instance, .any, unicastResponse: true)]))
                try await Task.sleep(for: .milliseconds(250))
            }
            if discovery.state.withLock({ $0.conflict }) {
                await socket.close()
                throw DiscoveryError.nameTaken(advertisement.platform)
            }
        }
        discovery.state.withLock { $0.probing = false }
        discovery.run()
        return discovery
    }

    private init(
        socket: MulticastDNSSocket, advertisement: Advertisement?, ttl: UInt32, logger: Logger, onChange: @escaping @Sendable (Change) -> Void
    ) {
        self.socket = socket
        self.advertisement = advertisement
        self.ttl = ttl
        self.logger = logger
        self.onChange = onChange
    }

    /// The platforms found and not lost, by name.
    public var platforms: [DiscoveredPlatform] {
        state.withLock { $0.platforms.values.sorted { $0.name < $1.name } }
    }

    /// What the socket saw (messages, malformed packets, packets dropped by the rate limit).
    public var seen: MulticastDNSSocket.Counters { socket.seen }

    /// Announces the advertisement again (its services changed); nothing once stopped.
    public func announce() {
        guard !state.withLock({ $0.stopped }), let records = ownRecords(ttl: ttl) else { return }
        socket.send(DNSMessage(isResponse: true, answers: records))
    }

    /// Announces the advertisement again 100 ms from now, once for a burst of calls:
    /// its services changed (an agent registered, say, while others start).
    public func servicesChanged() {
        pendingAnnouncement.withLock { pending in
            guard pending == nil else { return }
            pending = Task { [weak self] in
                try? await Task.sleep(for: .milliseconds(100))
                guard let self, !Task.isCancelled else { return }
                self.pendingAnnouncement.withLock { $0 = nil }
                self.announce()
            }
        }
    }

    /// Runs `undo` when the discovery stops.
    func whenStopped(_ undo: @escaping @Sendable () -> Void) {
        stopping.withLock { $0.append(undo) }
    }

    /// Says goodbye (the records with TTL 0) and closes the socket.
    public func stop() async {
        state.withLock { $0.stopped = true }
        for undo in stopping.withLock({ undos in defer { undos = [] }; return undos }) { undo() }
        for task in tasks.withLock({ tasks in defer { tasks = [] }; return tasks }) { task.cancel() }
        pendingAnnouncement.withLock { $0?.cancel() }
        if let goodbye = ownRecords(ttl: 0) { socket.send(DNSMessage(isResponse: true, answers: goodbye)) }
        await socket.close()
    }

    // MARK: Running

    /// Announces twice a second apart, queries at 0, 1, 2, 4 … 60 s, and drops what expired every second.
    private func run() {
        let announcing = Task { [weak self] in
            for delay in [0, 1] {
                try? await Task.sleep(for: .seconds(delay))
                guard let self, !Task.isCancelled else { return }
                self.announce()
            }
        }
        let querying = Task { [weak self] in
            var interval = 1
            while !Task.isCancelled {
                guard let self else { return }
                self.socket.send(DNSMessage(isResponse: false, questions: [DNSQuestion(Self.serviceType, .ptr)]))
                try? await Task.sleep(for: .seconds(interval))
                interval = min(interval * 2, 60)
            }
        }
        let expiring = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                self?.expire()
            }
        }
        tasks.withLock { $0 += [announcing, querying, expiring] }
    }

    private var instance: DNSName? { advertisement.map { Self.serviceType.prepending($0.platform) } }
    private var hostName: DNSName? {
        advertisement.map { DNSName(labels: [Self.hostLabel(for: $0.platform), "local"]) }
    }

    static func hostLabel(for platform: String) -> String {
        String(platform.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }.prefix(50)) + "-sade"
    }

    /// Our PTR, SRV, TXT and A records with `ttl`.
    private func ownRecords(ttl: UInt32) -> [DNSRecord]? {
        guard let advertisement, let instance, let hostName else { return nil }
        let services = advertisement.services().sorted().joined(separator: ",")
        var records = [
            DNSRecord(Self.serviceType, .ptr(instance), ttl: ttl),
            DNSRecord(instance, .srv(priority: 0, weight: 0, port: UInt16(advertisement.port), target: hostName), ttl: ttl, cacheFlush: true),
            DNSRecord(
                instance, .txt(["platform=\(advertisement.platform)", "version=\(Self.protocolVersion)", "services=\(services)"]), ttl: ttl,
                cacheFlush: true),
        ]
        records += advertisement.addresses.map { DNSRecord(hostName, .a($0), ttl: ttl, cacheFlush: true) }
        return records
    }

    // MARK: Receiving

    private func handle(_ message: DNSMessage, from: SocketAddress) {
        if message.isResponse {
            // A loopback address means something only to a sender on this host.
            // (0.0.0.0: a sender with no address of its own, as on a loopback-only host.)
            let fromHere = from.ipAddress.map { $0.hasPrefix("127.") || $0 == "0.0.0.0" } ?? true
            take(message.records.filter { record in
                guard !fromHere, case .a(let address) = record.data else { return true }
                return !address.description.hasPrefix("127.")
            })
        } else if !state.withLock({ $0.probing }) {
            answer(message.questions)
        }
    }

    /// Answers the questions about us (the service type, our instance, our host).
    private func answer(_ questions: [DNSQuestion]) {
        guard let records = ownRecords(ttl: ttl) else { return }
        var answers: [DNSRecord] = []
        for question in questions {
            let matching = records.filter { record in
                record.name == question.name && (question.type == .any || question.type == record.type)
            }
            answers += matching
            if question.name == Self.serviceType, question.type == .ptr || question.type == .any { answers += records.filter { $0.name != Self.serviceType } }
        }
        guard !answers.isEmpty else { return }
        var unique: [DNSRecord] = []
        for record in answers where !unique.contains(record) { unique.append(record) }
        socket.send(DNSMessage(isResponse: true, answers: unique))
    }

    /// Caches the records of `_sade._tcp` services and their hosts; TTL 0 removes. A
    /// record with the cache-flush bit replaces the cached ones of its name and type
    /// received more than a second before (RFC 6762 §10.2: records a host sends in
    /// several packets stay together); of records that can only be one — SRV, TXT — the
    /// last received counts.
    private func take(_ records: [DNSRecord]) {
        let now = ContinuousClock.now
        let ownSRV = ownRecords(ttl: ttl)?.first { $0.type == .srv }
        struct RecordSet: Hashable {
            let name: DNSName
            let type: DNSRecordType
        }
        let flushed = Set(records.filter(\.cacheFlush).map { RecordSet(name: $0.name, type: $0.type) })
        let changes = state.withLock { state -> [Change] in
            if !flushed.isEmpty {
                state.cache = state.cache.filter { key, cached in
                    !flushed.contains(RecordSet(name: key.name, type: key.type)) || now - cached.received < .seconds(1)
                }
            }
            for record in records {
                if let ownSRV, record.type == .srv, record.name == ownSRV.name, record.data != ownSRV.data {
                    state.conflict = true  // another host claims our instance name
                    continue
                }
                var key = record
                key.ttl = 0
                key.cacheFlush = false
                if record.ttl == 0 {
                    state.cache[key] = nil
                } else if state.cache[key] != nil || state.cache.count < Self.cacheCapacity {
                    let lifetime = Duration.seconds(Int(record.ttl))
                    state.cache[key] = Cached(record: record, received: now, expires: now + lifetime, refresh: now + lifetime * 0.8)
                }
            }
            return Self.resolve(&state, excluding: advertisement?.platform)
        }
        for change in changes { onChange(change) }
    }

    /// Drops what expired, and asks again for the services when a record of ours is
    /// near its end (RFC 6762 §5.2), so that a platform still there is not lost.
    private func expire() {
        let now = ContinuousClock.now
        let (changes, askAgain) = state.withLock { state -> ([Change], Bool) in
            state.cache = state.cache.filter { $0.value.expires > now }
            var askAgain = false
            for (key, cached) in state.cache where cached.refresh <= now {
                askAgain = true
                state.cache[key]?.refresh = now + (cached.expires - now) / 2
            }
            return (Self.resolve(&state, excluding: advertisement?.platform), askAgain)
        }
        if askAgain { socket.send(DNSMessage(isResponse: false, questions: [DNSQuestion(Self.serviceType, .ptr)])) }
        for change in changes { onChange(change) }
    }

    /// The platforms the cache describes now, and what changed since the last look.
    private static func resolve(_ state: inout State, excluding own: String?) -> [Change] {
        let records = state.cache.values.sorted { $0.received > $1.received }.map(\.record)  // the last received first
        var found: [String: DiscoveredPlatform] = [:]
        for pointer in records where pointer.name == serviceType {
            guard case .ptr(let instance) = pointer.data, let label = instance.labels.first else { continue }
            guard let srv = records.first(where: { $0.name == instance && $0.type == .srv }),
                case .srv(_, _, let port, let target) = srv.data
            else { continue }
            var fields: [String: String] = [:]
            if let txt = records.first(where: { $0.name == instance && $0.type == .txt }), case .txt(let strings) = txt.data {
                for string in strings {
                    let parts = string.split(separator: "=", maxSplits: 1).map(String.init)
                    if parts.count == 2 { fields[parts[0].lowercased()] = parts[1] }
                }
            }
            let addresses = records.compactMap { record -> String? in
                guard record.name == target, case .a(let address) = record.data else { return nil }
                return address.description
            }.sorted()
            guard !addresses.isEmpty else { continue }
            let name = fields["platform"] ?? label
            guard name != own else { continue }
            let services = (fields["services"] ?? "").split(separator: ",").map(String.init)
            found[name] = DiscoveredPlatform(name: name, port: Int(port), addresses: addresses, services: services, version: fields["version"])
        }
        var changes: [Change] = []
        for (name, platform) in found.sorted(by: { $0.key < $1.key }) {
            if let known = state.platforms[name] {
                if known != platform { changes.append(.updated(platform)) }
            } else {
                changes.append(.found(platform))
            }
        }
        for name in state.platforms.keys.sorted() where found[name] == nil { changes.append(.lost(name)) }
        state.platforms = found
        return changes
    }
}
