import Logging
import SADEACL
import SADECore
import Synchronization

/// Agents on XMPP (beside TCP): each agent of the platform given to ``start(for:configuration:agents:logger:)``
/// logs in to an XMPP server as `agent@domain` and sends and receives FIPA messages as
/// SPADE 4 encodes them (``SPADEMessageCoding``), so SPADE agents and ours talk. An
/// agent elsewhere on XMPP is named by its JID, with the address `xmpp://user@domain`:
///
/// ```swift
/// let xmpp = try await XMPPTransport.start(
///     for: platform, configuration: .init(host: "127.0.0.1", domain: "localhost", password: "secret", register: true),
///     agents: ["nurse"])
/// let alice = AgentIdentifier(name: "alice@localhost", addresses: ["xmpp://alice@localhost"])
/// let answer = try await nurse.request(to: alice, content: "(ping)", timeout: .seconds(5))
/// ```
///
/// A session that drops is opened again with back-off; while it is down, messages from
/// that agent fail at once. A `subscribe` to an agent's presence is approved, as SPADE
/// agents do, and an agent asks for the presence of every peer it talks to: the
/// contacts online are listed in the platform's DF (service type `xmpp-contact`) and
/// kept here (``presence(of:)``). A peer that disappears while our agents await its
/// answer — its presence goes unavailable, or a liveness ping to the session that wrote
/// bounces (every ``Configuration/livenessInterval``) — fails those conversations at
/// once with a FIPA `failure` from the AMS, as an undeliverable message does.
public final class XMPPTransport: MessageTransport {
    /// The server, the password of every agent's account, and how to connect.
    public struct Configuration: Sendable {
        public var host: String
        public var port: Int
        public var domain: String
        public var password: String
        /// Create each agent's account by in-band registration (XEP-0077) first.
        public var register: Bool
        public var trust: XMPPConnection.Configuration.Trust
        public var allowPlaintext: Bool
        /// The resource every agent binds.
        public var resource: String
        /// The first and the longest wait between attempts to open a dropped session again.
        public var reconnectBackoff: (first: Duration, longest: Duration)
        /// How often a peer our agents await an answer from is pinged (XEP-0199).
        public var livenessInterval: Duration

        public init(
            host: String, port: Int = 5222, domain: String, password: String, register: Bool = false,
            trust: XMPPConnection.Configuration.Trust = .system, allowPlaintext: Bool = false, resource: String = "sade",
            reconnectBackoff: (first: Duration, longest: Duration) = (.milliseconds(200), .seconds(30)),
            livenessInterval: Duration = .seconds(5)
        ) {
            self.host = host
            self.port = port
            self.domain = domain
            self.password = password
            self.register = register
            self.trust = trust
            self.allowPlaintext = allowPlaintext
            self.resource = resource
            self.reconnectBackoff = reconnectBackoff
            self.livenessInterval = livenessInterval
        }

        func session(for username: String) -> XMPPConnection.Configuration {
            XMPPConnection.Configuration(
                host: host, port: port, domain: domain, username: username, password: password, resource: resource,
                register: register, trust: trust, allowPlaintext: allowPlaintext)
        }
    }

    /// What a contact's last presence said.
    public enum Presence: String, Hashable, Sendable {
        case available, unavailable
    }

    /// The platform's agents on XMPP, by local name.
    private let sessions: [String: AgentSession]
    private let contacts = Mutex(Contacts())
    private let configuration: Configuration
    /// The conversation of each message recently sent, by stanza id, for the error a
    /// server may bounce it with (RFC 6120 §8.3: an error stanza keeps the id).
    private let recent = Mutex(RecentMessages())
    private let peers = Mutex(XMPPPeers())
    /// The contacts this transport listed in the DF, by bare JID.
    private let listed = Mutex<Set<String>>([])
    private let liveness = Mutex<Task<Void, Never>?>(nil)

    private init(sessions: [String: AgentSession], configuration: Configuration) {
        self.sessions = sessions
        self.configuration = configuration
    }

    /// Logs `agents` (local names on `platform`) in, each as `name@domain`, and attaches
    /// the transport to the platform.
    ///
    /// - Throws: ``XMPPError`` when an agent cannot log in (the others are logged out).
    public static func start(
        for platform: Environment, configuration: Configuration, agents: [String], logger: Logger = Logger(label: "sade.xmpp")
    ) async throws(XMPPError) -> XMPPTransport {
        var sessions: [String: AgentSession] = [:]
        for name in agents {
            do throws(XMPPError) {
                let connection = try await XMPPConnection.connect(configuration.session(for: name), logger: logger)
                sessions[name] = AgentSession(agent: name, connection: connection)
            } catch {
                for session in sessions.values { await session.stop() }
                throw error
            }
        }
        let transport = XMPPTransport(sessions: sessions, configuration: configuration)
        for session in sessions.values {
            session.run(configuration: configuration, logger: logger) { [weak platform, weak transport] stanza in
                guard let platform, let transport else { return }
                transport.take(stanza, for: session.agent, on: platform, logger: logger)
            }
        }
        platform.attach(transport)
        transport.watchPeers(on: platform)
        return transport
    }

    /// `xmpp://agent@domain` of every agent on XMPP.
    public var addresses: [String] { sessions.keys.sorted().map { "xmpp://\($0)@\(configuration.domain)" } }

    /// Whether `address` is an XMPP address.
    public func canReach(_ address: String) -> Bool { address.hasPrefix("xmpp://") }

    /// Sends `message` from its sender's session to the JID in `address`.
    public func send(_ message: ACLMessage, to receiver: AgentIdentifier, at address: String) -> DeliveryFailure? {
        let jid = String(address.dropFirst("xmpp://".count))
        guard !jid.isEmpty, jid.contains("@") else { return .unreachable(receiver, reason: "'\(address)' names no JID") }
        guard let sender = message.sender.map({ String($0.localName) }), let session = sessions[sender] else {
            return .unreachable(receiver, reason: "the sender '\(message.sender?.name ?? "none")' has no XMPP session on this platform")
        }
        guard let connection = session.connection else {
            return .unreachable(receiver, reason: "the XMPP session of '\(sender)' is down, being opened again")
        }
        if presence(of: jid) == .unavailable {
            return .unreachable(receiver, reason: "\(jid) is offline (its last presence)")
        }
        let id = recent.withLock { $0.remember(message) }
        let peer = SPADEMessageCoding.bareJID(jid)
        let firstContact = peers.withLock { $0.sent(message, by: sender, to: peer, now: .now) }
        connection.send(SPADEMessageCoding.stanza(for: message, to: jid, id: id))
        if firstContact {  // the peer's presence tells when it goes away
            connection.send(XMPPElement("presence", namespace: "jabber:client", attributes: ["to": peer, "type": "subscribe"]))
        }
        return nil
    }

    /// Like ``send(_:to:at:)``: the socket takes what is written.
    public func sendWhenReady(_ message: ACLMessage, to receiver: AgentIdentifier, at address: String) async -> DeliveryFailure? {
        send(message, to: receiver, at: address)
    }

    /// Whether a contact (bare JID) has a session online, by the presence it sent to
    /// our agents; `nil` if it never showed one.
    public func presence(of jid: String) -> Presence? {
        contacts.withLock { $0.presence(of: SPADEMessageCoding.bareJID(jid)) }
    }

    /// Every contact whose presence we saw, by bare JID.
    public var knownContacts: [String: Presence] { contacts.withLock { $0.all } }

    /// Whether `jid` (bare) is one of this transport's agents.
    private func isOurs(_ jid: String) -> Bool {
        guard jid.hasSuffix("@\(configuration.domain)") else { return false }
        return sessions[String(jid.dropLast(configuration.domain.count + 1))] != nil
    }

    /// Asks for `jid`'s presence on behalf of `agent` (a subscription request).
    public func subscribe(agent: String, to jid: String) {
        sessions[agent]?.connection?.send(XMPPElement("presence", namespace: "jabber:client", attributes: ["to": jid, "type": "subscribe"]))
    }

    /// Logs every agent out, detaches the transport and withdraws the contacts it listed.
    public func shutdown(from platform: Environment? = nil) async {
        liveness.withLock { $0 }?.cancel()
        platform?.detachTransport(withAddresses: addresses)
        for session in sessions.values { await session.stop() }  // first: no presence lists a contact again
        if let platform {
            for contact in listed.withLock({ $0 }) { unlist(contact, from: platform) }
        }
    }

    // MARK: Peers

    /// Pings, every liveness interval, the peers our agents await answers from.
    private func watchPeers(on platform: Environment) {
        let interval = configuration.livenessInterval
        let task = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard let self else { return }
                for due in peers.withLock({ $0.pingsDue(now: .now) }) { ping(due.to, id: due.id, from: due.agent) }
            }
        }
        liveness.withLock { $0 = task }
    }

    /// Sends a ping (XEP-0199) from `agent`'s session.
    private func ping(_ jid: String, id: String, from agent: String) {
        sessions[agent]?.connection?.send(
            XMPPElement(
                "iq", namespace: "jabber:client", attributes: ["type": "get", "to": jid, "id": id],
                children: [.element(XMPPElement("ping", namespace: "urn:xmpp:ping"))]))
    }

    /// A ping's answer: a bounce saying the session is gone fails what awaits the peer.
    private func takePingAnswer(_ stanza: XMPPElement, on platform: Environment) {
        guard let id = stanza[attribute: "id"] else { return }
        let condition = stanza[attribute: "type"] == "error" ? Self.condition(of: stanza) : nil
        guard let peer = peers.withLock({ $0.pingAnswered(id: id, from: stanza[attribute: "from"], error: condition) }) else { return }
        failAwaited(by: peer, because: condition ?? "gone", on: platform)
    }

    /// Every conversation awaiting `peer` ends with a FIPA failure from the AMS, and
    /// the peer leaves the DF.
    private func failAwaited(by peer: String, because reason: String, on platform: Environment) {
        unlist(peer, from: platform)
        for waiting in peers.withLock({ $0.gone(peer) }) {
            let local = AgentIdentifier(name: "\(waiting.agent)@\(platform.name)")
            var notice = ACLMessage(
                .failure, sender: platform.amsIdentifier, receivers: [local],
                content: "((unreachable \(ACLExpression.string("\(peer) is gone: \(reason)"))))",
                conversationID: waiting.conversationID, inReplyTo: waiting.replyWith)
            notice.userDefined["X-failure-reason"] = "unreachable"
            notice.userDefined["X-undelivered-to"] = peer
            platform.deliverArrived(notice, to: local)
        }
    }

    /// Lists an available contact in the DF (service type `xmpp-contact`, properties
    /// `presence` and XMPP's `show`: chat, away, dnd…), unless one of the platform's
    /// agents has that name.
    /// The DF is changed under the `listed` lock, so a listing and a withdrawal of one
    /// contact never interleave.
    private func list(_ contact: String, at full: String, show: String?, on platform: Environment) {
        let entry = DirectoryEntry(
            agent: AgentIdentifier(name: contact, addresses: ["xmpp://\(full)"]),
            services: [ServiceDescription(name: contact, type: "xmpp-contact", properties: ["presence": "available", "show": show ?? "available"])])
        listed.withLock { listed in
            if listed.contains(contact) {
                try? platform.directory.modify(entry)
            } else if (try? platform.directory.register(entry)) != nil {
                listed.insert(contact)
            }
        }
    }

    /// Withdraws a contact this transport listed.
    private func unlist(_ contact: String, from platform: Environment) {
        listed.withLock { listed in
            guard listed.remove(contact) != nil else { return }
            try? platform.directory.deregister(AgentIdentifier(name: contact))
        }
    }

    /// The defined condition of an error stanza.
    private static func condition(of stanza: XMPPElement) -> String {
        stanza.child("error")?.elements.first { $0.namespace == "urn:ietf:params:xml:ns:xmpp-stanzas" }?.name ?? "undefined-condition"
    }

    // MARK: Receiving

    private func take(_ stanza: XMPPElement, for agent: String, on platform: Environment, logger: Logger) {
        let local = AgentIdentifier(name: "\(agent)@\(platform.name)")
        logger.trace("XMPP stanza", metadata: ["agent": "\(agent)", "stanza": "\(stanza)"])
        switch stanza.name {
        case "message" where stanza[attribute: "type"] == "error":
            returnFailure(stanza, to: local, on: platform)
        case "message":
            do throws(SPADEMessageCoding.DecodingError) {
                let message = try SPADEMessageCoding.message(from: stanza, receiver: local)
                if let from = stanza[attribute: "from"], let probe = peers.withLock({ $0.received(message, from: from, by: agent) }) {
                    ping(probe.to, id: probe.id, from: agent)  // does this new session answer pings?
                }
                platform.deliverArrived(message, to: local)
            } catch {
                logger.notice("XMPP message dropped", metadata: ["agent": "\(agent)", "from": "\(stanza[attribute: "from"] ?? "?")", "reason": "\(error)"])
                if case .unknownPerformative = error, let from = stanza[attribute: "from"] {
                    let notUnderstood = ACLMessage(.notUnderstood, content: "((unknown-performative))", conversationID: stanza.child("thread")?.text)
                    sessions[agent]?.connection?.send(SPADEMessageCoding.stanza(for: notUnderstood, to: SPADEMessageCoding.bareJID(from)))
                }
            }
        case "presence":
            guard let from = stanza[attribute: "from"] else { return }
            let bare = SPADEMessageCoding.bareJID(from)
            guard !isOurs(bare) else { return }  // the server echoes our own presence
            switch stanza[attribute: "type"] {
            case nil:
                if contacts.withLock({ $0.available(from) }) { list(bare, at: from, show: stanza.child("show")?.text, on: platform) }
            case "unavailable":
                // Gone once its last session seen online leaves.
                guard contacts.withLock({ $0.unavailable(from) }) else { break }
                failAwaited(by: bare, because: "its presence is unavailable", on: platform)
            case "subscribe":  // approved, as SPADE agents do (slixmpp's default)
                sessions[agent]?.connection?.send(XMPPElement("presence", namespace: "jabber:client", attributes: ["to": bare, "type": "subscribed"]))
            default: break
            }
        case "iq" where ["result", "error"].contains(stanza[attribute: "type"]):
            takePingAnswer(stanza, on: platform)
        default:
            break
        }
    }

    /// An XMPP error bounced a message of ours: the sender gets a FIPA failure from the AMS.
    private func returnFailure(_ stanza: XMPPElement, to local: AgentIdentifier, on platform: Environment) {
        let from = SPADEMessageCoding.bareJID(stanza[attribute: "from"] ?? "")
        let condition = Self.condition(of: stanza)
        let sent = stanza[attribute: "id"].flatMap { id in recent.withLock { $0.conversation(of: id) } }
        let echoed = try? SPADEMessageCoding.message(from: stanza, receiver: local)
        let (conversationID, replyWith) = (sent?.conversationID ?? echoed?.conversationID, sent?.replyWith ?? echoed?.replyWith)
        let agent = String(local.localName)
        let failedAlready = peers.withLock { peers in
            peers.forget(from, agent: agent, conversationID: conversationID, replyWith: replyWith)
            return peers.hasFailed(agent: agent, conversationID: conversationID)
        }
        guard !failedAlready else { return }  // its peer's departure ended it already
        var notice = ACLMessage(
            .failure, sender: platform.amsIdentifier, receivers: [local],
            content: "((unreachable \(ACLExpression.string("\(from): \(condition)"))))",
            conversationID: conversationID, inReplyTo: replyWith)
        notice.userDefined["X-failure-reason"] = "unreachable"
        notice.userDefined["X-undelivered-to"] = from
        platform.deliverArrived(notice, to: local)
    }
}

/// The sessions of each contact that showed themselves online (RFC 6121 §4: presence
/// comes per full JID; a contact is online while one of its sessions is).
private struct Contacts {
    private var online: [String: Set<String>] = [:]

    /// `from` (a full JID, or a bare one from a server that gives no resource) is
    /// online; returns whether it is kept (beyond 10,000 contacts, new ones are not).
    mutating func available(_ from: String) -> Bool {
        let bare = SPADEMessageCoding.bareJID(from)
        guard online.count < 10_000 || online[bare] != nil else { return false }
        online[bare, default: []].insert(from)
        return true
    }

    /// `from` left; returns whether that was its contact's last session online. A
    /// bare JID's `unavailable` ends only a presence that came from the bare JID: a
    /// server acknowledges each new subscription request with one (RFC 6121 §3.1.3),
    /// whatever the sessions online.
    mutating func unavailable(_ from: String) -> Bool {
        let bare = SPADEMessageCoding.bareJID(from)
        guard var sessions = online[bare], sessions.remove(from) != nil else { return false }
        online[bare] = sessions
        return sessions.isEmpty
    }

    func presence(of bare: String) -> XMPPTransport.Presence? {
        online[bare].map { $0.isEmpty ? .unavailable : .available }
    }

    var all: [String: XMPPTransport.Presence] { online.mapValues { $0.isEmpty ? .unavailable : .available } }
}

/// The conversations of the last 4,096 messages sent, by the stanza id they went with.
private struct RecentMessages {
    private var byID: [String: (conversationID: String?, replyWith: String?)] = [:]
    private var order: [String] = []
    private var next = 0
    private var counter: UInt64 = 0

    /// A new stanza id for `message`, remembered.
    mutating func remember(_ message: ACLMessage) -> String {
        counter += 1
        let id = "sade-\(counter)"
        if order.count < 4_096 {
            order.append(id)
        } else {
            byID[order[next]] = nil
            order[next] = id
            next = (next + 1) % order.count
        }
        byID[id] = (message.conversationID, message.replyWith)
        return id
    }

    func conversation(of id: String) -> (conversationID: String?, replyWith: String?)? { byID[id] }
}

/// One agent's XMPP session, opened again when it drops.
private final class AgentSession: Sendable {
    let agent: String
    private let current: Mutex<XMPPConnection?>
    private let task = Mutex<Task<Void, Never>?>(nil)

    init(agent: String, connection: XMPPConnection) {
        self.agent = agent
        current = Mutex(connection)
    }

    /// The open connection, if there is one.
    var connection: XMPPConnection? { current.withLock { $0 } }

    /// Reads stanzas into `deliver`; reconnects with back-off while not stopped.
    func run(configuration: XMPPTransport.Configuration, logger: Logger, deliver: @escaping @Sendable (XMPPElement) -> Void) {
        let running = Task { [agent] in
            var backoff = configuration.reconnectBackoff.first
            while !Task.isCancelled {
                if let connection = current.withLock({ $0 }) {
                    for await stanza in connection.stanzas { deliver(stanza) }
                    current.withLock { $0 = nil }
                    guard !Task.isCancelled else { return }
                    logger.warning("XMPP session dropped; opening it again", metadata: ["agent": "\(agent)", "reason": "\(connection.endReason.map { "\($0)" } ?? "closed")"])
                    backoff = configuration.reconnectBackoff.first
                }
                try? await Task.sleep(for: backoff)
                guard !Task.isCancelled else { return }
                do throws(XMPPError) {
                    let connection = try await XMPPConnection.connect(configuration.session(for: agent), logger: logger)
                    current.withLock { $0 = connection }
                } catch {
                    logger.warning("XMPP session not opened", metadata: ["agent": "\(agent)", "error": "\(error)", "next attempt in": "\(backoff * 2)"])
                    backoff = min(backoff * 2, configuration.reconnectBackoff.longest)
                }
            }
        }
        task.withLock { $0 = running }
    }

    /// Logs out and stops reconnecting.
    func stop() async {
        let running = task.withLock { $0 }
        running?.cancel()
        if let connection = current.withLock({ $0 }) { await connection.close() }
        await running?.value
    }
}
