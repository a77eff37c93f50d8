import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS
import Synchronization

/// Why an XMPP session could not be opened or ended.
public enum XMPPError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The server cannot be reached.
    case unreachable(String)
    /// The server requires something we do not do, or offers nothing we can use.
    case unsupported(String)
    /// The TLS handshake failed (an untrusted certificate, say).
    case tls(String)
    /// The server refused the credentials (its SASL condition, e.g. `not-authorized`).
    case authenticationFailed(String)
    /// In-band registration was refused (e.g. `not-allowed`).
    case registrationRefused(String)
    /// The stream was malformed or broken by the server (its stream error condition).
    case stream(String)
    /// No answer in time.
    case timedOut(String)
    /// The connection closed.
    case closed

    /// A sentence saying what went wrong.
    public var description: String {
        switch self {
        case .unreachable(let why): "XMPP server unreachable: \(why)"
        case .unsupported(let why): "XMPP server unsupported: \(why)"
        case .tls(let why): "XMPP TLS failed: \(why)"
        case .authenticationFailed(let condition): "XMPP login refused: \(condition)"
        case .registrationRefused(let condition): "XMPP registration refused: \(condition)"
        case .stream(let why): "XMPP stream error: \(why)"
        case .timedOut(let step): "XMPP server did not answer in time: \(step)"
        case .closed: "XMPP connection closed"
        }
    }
}

/// One client session with an XMPP server (RFC 6120): TCP, STARTTLS when offered
/// (required unless told otherwise), optional in-band registration (XEP-0077), SASL
/// SCRAM-SHA-1 or PLAIN, resource binding, initial presence. Then stanzas go out with
/// ``send(_:)`` and come in on ``stanzas``; pings (XEP-0199) are answered and unknown
/// queries refused, as RFC 6120 §8.2.3 asks.
public final class XMPPConnection: Sendable {
    /// Where and as whom to log in.
    public struct Configuration: Sendable {
        /// How the server's certificate is checked.
        public enum Trust: Sendable {
            /// The system's trust store.
            case system
            /// These PEM authorities (a private CA, or the server's self-signed certificate).
            case authorities(file: String)
            /// Any certificate: encryption without authentication (test servers; SPADE's default).
            case anyCertificate
        }

        public var host: String
        public var port: Int
        /// The XMPP domain (the part after `@` in JIDs).
        public var domain: String
        public var username: String
        public var password: String
        /// The resource to bind; the server's choice when `nil`.
        public var resource: String?
        /// Create the account by in-band registration first (an existing one is fine).
        public var register: Bool
        public var trust: Trust
        /// Allow a stream without TLS when the server offers none (never for PLAIN).
        public var allowPlaintext: Bool
        /// How long opening the session may take.
        public var timeout: Duration
        /// The parser's limits on incoming stanzas.
        public var limits: XMLStreamParser.Limits

        public init(
            host: String, port: Int = 5222, domain: String, username: String, password: String, resource: String? = nil,
            register: Bool = false, trust: Trust = .system, allowPlaintext: Bool = false, timeout: Duration = .seconds(10),
            limits: XMLStreamParser.Limits = .init()
        ) {
            self.host = host
            self.port = port
            self.domain = domain
            self.username = username
            self.password = password
            self.resource = resource
            self.register = register
            self.trust = trust
            self.allowPlaintext = allowPlaintext
            self.timeout = timeout
            self.limits = limits
        }

        /// `username@domain`.
        public var bareJID: String { "\(username)@\(domain)" }
    }

    /// The full JID the server bound (`user@domain/resource`).
    public let jid: String
    /// Incoming stanzas (`message`, `presence`, `iq` other than those answered here);
    /// finishes when the connection ends.
    public let stanzas: AsyncStream<XMPPElement>
    private let channel: any Channel
    private let reader: Task<Void, Never>
    private let ending: Ending

    /// Why the connection ended, shared with its reader.
    private final class Ending: Sendable {
        let reason = Mutex<XMPPError?>(nil)
        func record(_ error: XMPPError) { reason.withLock { $0 = $0 ?? error } }
    }

    /// The step the negotiation is at, for the error when it takes too long.
    final class Stage: Sendable {
        private let current = Mutex("the stream header")
        func enter(_ step: String) { current.withLock { $0 = step } }
        var step: String { current.withLock { $0 } }
    }

    private init(jid: String, channel: any Channel, stanzas: AsyncStream<XMPPElement>, reader: Task<Void, Never>, ending: Ending) {
        self.jid = jid
        self.channel = channel
        self.stanzas = stanzas
        self.reader = reader
        self.ending = ending
    }

    /// Opens a session; see the type's description.
    public static func connect(_ configuration: Configuration, logger: Logger = Logger(label: "sade.xmpp")) async throws(XMPPError) -> XMPPConnection {
        let (bytes, continuation) = AsyncThrowingStream.makeStream(of: ByteBuffer.self)
        let channel: any Channel
        do {
            channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(.seconds(5))
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(ByteStreamHandler(continuation)) }
                }
                .connect(host: configuration.host, port: configuration.port).get()
        } catch {
            throw .unreachable("\(configuration.host):\(configuration.port): \(error)")
        }
        let (opened, open) = AsyncStream.makeStream(of: Result<String, XMPPError>.self)
        let (stanzas, incoming) = AsyncStream.makeStream(of: XMPPElement.self)
        let ending = Ending()
        let stage = Stage()
        // One task reads the stream from its first byte to its last: the negotiation, then the stanzas.
        let reader = Task {
            var negotiation = Negotiation(
                channel: channel, bytes: bytes.makeAsyncIterator(), parser: XMLStreamParser(limits: configuration.limits), stage: stage)
            do throws(XMPPError) {
                open.yield(.success(try await negotiation.open(configuration)))
            } catch {
                open.yield(.failure(error))
                incoming.finish()
                negotiation.close()
                return
            }
            while true {
                let element: XMPPElement
                do throws(XMPPError) {
                    element = try await negotiation.nextElement()
                } catch {
                    ending.record(error)
                    if case .stream(let why) = error { logger.warning("XMPP stream ended", metadata: ["reason": "\(why)"]) }
                    break
                }
                if let answer = Self.automaticAnswer(to: element) {
                    negotiation.write(answer.description)
                } else {
                    incoming.yield(element)
                }
            }
            incoming.finish()
            negotiation.write("</stream:stream>")
            negotiation.close()
        }
        let watchdog = Task {
            try? await Task.sleep(for: configuration.timeout)
            guard !Task.isCancelled else { return }
            ending.record(.timedOut("opening the session, at \(stage.step)"))
            channel.close(promise: nil)
        }
        let outcome = await opened.first { _ in true }
        watchdog.cancel()
        switch outcome {
        case .success(let jid)?:
            return XMPPConnection(jid: jid, channel: channel, stanzas: stanzas, reader: reader, ending: ending)
        case .failure(let error)?:
            await reader.value
            if case .timedOut(let step)? = ending.reason.withLock({ $0 }) { throw .timedOut(step) }
            throw error
        case nil:
            throw .closed
        }
    }

    /// Sends a stanza (the `jabber:client` namespace is implied).
    public func send(_ element: XMPPElement) {
        channel.writeAndFlush(ByteBuffer(string: element.description), promise: nil)
    }

    /// Whether the connection is still open.
    public var isOpen: Bool { ending.reason.withLock { $0 == nil } && channel.isActive }

    /// Why the connection ended, once it has.
    public var endReason: XMPPError? { ending.reason.withLock { $0 } }

    /// Says `unavailable`, closes the stream and the connection, and waits for the reader.
    public func close() async {
        if channel.isActive {
            channel.write(ByteBuffer(string: "<presence type='unavailable'/>"), promise: nil)
            channel.writeAndFlush(ByteBuffer(string: "</stream:stream>"), promise: nil)
        }
        ending.record(.closed)
        try? await channel.close()
        await reader.value
    }

    /// The answer to an `iq` handled here: a ping, or an error for a query nobody handles
    /// (an `iq` of type get or set must be answered). `nil` for what goes to ``stanzas``.
    static func automaticAnswer(to element: XMPPElement) -> XMPPElement? {
        guard element.name == "iq", element.namespace == "jabber:client", let type = element[attribute: "type"], type == "get" || type == "set"
        else { return nil }
        var answer = XMPPElement("iq", namespace: "jabber:client", attributes: ["type": "result"])
        answer[attribute: "id"] = element[attribute: "id"]
        answer[attribute: "to"] = element[attribute: "from"]
        if element.child("ping", namespace: "urn:xmpp:ping") != nil { return answer }
        answer[attribute: "type"] = "error"
        answer.append(
            XMPPElement(
                "error", namespace: "jabber:client", attributes: ["type": "cancel"],
                children: [.element(XMPPElement("service-unavailable", namespace: "urn:ietf:params:xml:ns:xmpp-stanzas"))]))
        return answer
    }
}

/// The stream while it is being negotiated, then read by the connection's reader.
private struct Negotiation {
    let channel: any Channel
    var bytes: AsyncThrowingStream<ByteBuffer, any Error>.AsyncIterator
    var parser: XMLStreamParser
    var pending: [XMLStreamParser.Event] = []
    var secure = false
    var nextID = 0
    var streamsOpened = 0
    let stage: XMPPConnection.Stage

    init(
        channel: any Channel, bytes: AsyncThrowingStream<ByteBuffer, any Error>.AsyncIterator, parser: XMLStreamParser,
        stage: XMPPConnection.Stage
    ) {
        self.channel = channel
        self.bytes = bytes
        self.parser = parser
        self.stage = stage
    }

    func write(_ text: String) {
        channel.writeAndFlush(ByteBuffer(string: text), promise: nil)
    }

    func close() {
        channel.close(promise: nil)
    }

    /// The next event of the stream; a stream error from the server or malformed XML
    /// (answered with a stream error) ends it.
    mutating func nextEvent() async throws(XMPPError) -> XMLStreamParser.Event {
        while pending.isEmpty {
            let buffer: ByteBuffer?
            do {
                buffer = try await bytes.next()
            } catch {
                throw secure ? .stream("\(error)") : .tls("\(error)")
            }
            guard let buffer else { throw .closed }
            do {
                pending = try parser.feed(buffer.readableBytesView)
            } catch {
                write("<stream:error><\(error.condition) xmlns='urn:ietf:params:xml:ns:xmpp-streams'/></stream:error></stream:stream>")
                throw .stream(error.description)
            }
        }
        let event = pending.removeFirst()
        if case .element(let element) = event, element.name == "error", element.namespace == XMLStreamParser.streamsNamespace {
            throw .stream(element.elements.first?.name ?? "unknown")
        }
        return event
    }

    /// The next top-level element (after the header of a new stream).
    mutating func nextElement() async throws(XMPPError) -> XMPPElement {
        while true {
            switch try await nextEvent() {
            case .element(let element): return element
            case .streamOpened: continue
            case .streamClosed: throw .closed
            }
        }
    }

    mutating func openStream(_ domain: String) async throws(XMPPError) -> XMPPElement {
        // The XML declaration only once: some servers (pyjabber, SPADE's) parse the
        // restarted streams as one document, where a second declaration is an error.
        let declaration = streamsOpened == 0 ? "<?xml version='1.0'?>" : ""
        streamsOpened += 1
        parser.reset()
        pending = []
        write(
            "\(declaration)<stream:stream to='\(XMPPElement.escape(domain, quotes: true))' version='1.0' "
                + "xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'>")
        let features = try await nextElement()
        guard features.name == "features", features.namespace == XMLStreamParser.streamsNamespace else {
            throw .unsupported("expected <stream:features>, got <\(features.name)>")
        }
        return features
    }

    mutating func identifier() -> String {
        nextID += 1
        return "sade-\(nextID)"
    }

    /// TLS, registration, SASL, binding and presence; returns the bound JID.
    mutating func open(_ configuration: XMPPConnection.Configuration) async throws(XMPPError) -> String {
        var features = try await openStream(configuration.domain)
        if features.child("starttls", namespace: "urn:ietf:params:xml:ns:xmpp-tls") != nil {
            stage.enter("STARTTLS")
            write("<starttls xmlns='urn:ietf:params:xml:ns:xmpp-tls'/>")
            let answer = try await nextElement()
            guard answer.name == "proceed" else { throw .tls("the server did not proceed with STARTTLS (<\(answer.name)>)") }
            try await startTLS(configuration)
            stage.enter("the stream header after TLS")
            features = try await openStream(configuration.domain)
        } else if !configuration.allowPlaintext {
            throw .unsupported("the server offers no STARTTLS and plaintext is not allowed")
        }
        if configuration.register {
            stage.enter("in-band registration")
            try await register(configuration)
        }
        stage.enter("authentication")
        try await authenticate(configuration, offered: features)
        stage.enter("the stream header after authentication")
        features = try await openStream(configuration.domain)
        guard features.child("bind", namespace: "urn:ietf:params:xml:ns:xmpp-bind") != nil else {
            throw .unsupported("the server offers no resource binding")
        }
        stage.enter("resource binding")
        let bindID = identifier()
        var bind = XMPPElement("bind", namespace: "urn:ietf:params:xml:ns:xmpp-bind")
        if let resource = configuration.resource { bind.append(XMPPElement("resource", namespace: bind.namespace, text: resource)) }
        write(XMPPElement("iq", namespace: "jabber:client", attributes: ["type": "set", "id": bindID], children: [.element(bind)]).description)
        let bound = try await answer(to: bindID)
        guard bound[attribute: "type"] == "result", let jid = bound.child("bind")?.child("jid")?.text, !jid.isEmpty else {
            throw .unsupported("resource binding failed: \(bound)")
        }
        if let session = features.child("session", namespace: "urn:ietf:params:xml:ns:xmpp-session"), session.child("optional") == nil {
            stage.enter("session establishment")
            let sessionID = identifier()
            write("<iq type='set' id='\(sessionID)'><session xmlns='urn:ietf:params:xml:ns:xmpp-session'/></iq>")
            _ = try await answer(to: sessionID)
        }
        write("<presence/>")
        return jid
    }

    /// Waits for the `iq` answering `id`, leaving other stanzas for later.
    mutating func answer(to id: String) async throws(XMPPError) -> XMPPElement {
        var others: [XMLStreamParser.Event] = []
        defer { pending = others + pending }
        while true {
            let element = try await nextElement()
            if element.name == "iq", element[attribute: "id"] == id { return element }
            others.append(.element(element))
        }
    }

    mutating func startTLS(_ configuration: XMPPConnection.Configuration) async throws(XMPPError) {
        var tls = TLSConfiguration.makeClientConfiguration()
        switch configuration.trust {
        case .system: break
        case .authorities(let file):
            do {
                tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(file))
            } catch {
                throw .tls("cannot read the authorities in \(file): \(error)")
            }
        case .anyCertificate: tls.certificateVerification = .none
        }
        let context: NIOSSLContext
        do {
            context = try NIOSSLContext(configuration: tls)
        } catch {
            throw .tls("\(error)")
        }
        let hostname = configuration.domain
        let handshake = channel.eventLoop.makePromise(of: Void.self)
        do {
            try await channel.eventLoop.submit { [channel] in
                let handler = try NIOSSLClientHandler(context: context, serverHostname: hostname)
                try channel.pipeline.syncOperations.addHandler(handler, position: .first)
                try channel.pipeline.syncOperations.addHandler(HandshakeWatch(handshake), position: .after(handler))
            }.get()
        } catch {
            handshake.fail(error)  // no watch took it
            throw .tls("\(error)")
        }
        do {
            // The stream restarts once the handshake is over, not in the flight that ends
            // it: a server that swaps its transport when its side completes (pyjabber)
            // loses what comes with the client's Finished.
            try await handshake.futureResult.get()
        } catch {
            throw .tls("\(error)")
        }
        secure = true
    }

    mutating func register(_ configuration: XMPPConnection.Configuration) async throws(XMPPError) {
        let id = identifier()
        let query = XMPPElement(
            "query", namespace: "jabber:iq:register",
            children: [
                .element(XMPPElement("username", namespace: "jabber:iq:register", text: configuration.username)),
                .element(XMPPElement("password", namespace: "jabber:iq:register", text: configuration.password)),
            ])
        write(XMPPElement("iq", namespace: "jabber:client", attributes: ["type": "set", "id": id], children: [.element(query)]).description)
        let answer = try await answer(to: id)
        guard answer[attribute: "type"] != "result" else { return }
        let condition = answer.child("error")?.elements.first?.name ?? "unknown"
        guard condition == "conflict" else { throw .registrationRefused(condition) }  // the account exists already
    }

    mutating func authenticate(_ configuration: XMPPConnection.Configuration, offered features: XMPPElement) async throws(XMPPError) {
        let mechanisms = Set(
            features.child("mechanisms", namespace: "urn:ietf:params:xml:ns:xmpp-sasl")?.children("mechanism").map(\.text) ?? [])
        let sasl = "urn:ietf:params:xml:ns:xmpp-sasl"
        if mechanisms.contains("SCRAM-SHA-1") {
            var scram = SCRAMClient(username: configuration.username, password: configuration.password)
            write("<auth xmlns='\(sasl)' mechanism='SCRAM-SHA-1'>\(Data(scram.firstMessage.utf8).base64EncodedString())</auth>")
            let challenge = try await saslStep()
            guard challenge.name == "challenge", let text = Self.decode(challenge.text) else {
                throw .authenticationFailed(challenge.elements.first?.name ?? challenge.name)
            }
            let final: String
            do throws(SCRAMClient.Failure) {
                final = try scram.finalMessage(answering: text)
            } catch {
                throw .authenticationFailed(error.description)
            }
            write("<response xmlns='\(sasl)'>\(Data(final.utf8).base64EncodedString())</response>")
            let outcome = try await saslStep()
            guard outcome.name == "success", let verifier = Self.decode(outcome.text) else {
                throw .authenticationFailed(outcome.elements.first?.name ?? outcome.name)
            }
            do throws(SCRAMClient.Failure) {
                try scram.verify(serverFinal: verifier)
            } catch {
                throw .authenticationFailed(error.description)
            }
        } else if mechanisms.contains("PLAIN"), secure {
            let credentials = Data("\u{0}\(configuration.username)\u{0}\(configuration.password)".utf8).base64EncodedString()
            write("<auth xmlns='\(sasl)' mechanism='PLAIN'>\(credentials)</auth>")
            let outcome = try await saslStep()
            guard outcome.name == "success" else { throw .authenticationFailed(outcome.elements.first?.name ?? outcome.name) }
        } else {
            throw .unsupported("no SASL mechanism we can use among \(mechanisms.sorted()) (PLAIN only over TLS)")
        }
    }

    mutating func saslStep() async throws(XMPPError) -> XMPPElement {
        let element = try await nextElement()
        guard element.namespace == "urn:ietf:params:xml:ns:xmpp-sasl" else { throw .unsupported("expected a SASL answer, got <\(element.name)>") }
        return element
    }

    static func decode(_ base64: String) -> String? {
        let trimmed = base64.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty || trimmed == "=" { return "" }
        return Data(base64Encoded: trimmed).flatMap { String(data: $0, encoding: .utf8) }
    }
}

/// Completes a promise when the TLS handshake is over, or fails it if the channel
/// errs or ends first. Used on the channel's event loop only.
private final class HandshakeWatch: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    private let done: EventLoopPromise<Void>
    private var settled = false

    init(_ done: EventLoopPromise<Void>) { self.done = done }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .handshakeCompleted? = event as? TLSUserEvent, !settled {
            settled = true
            done.succeed()
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if !settled {
            settled = true
            done.fail(error)
        }
        context.fireErrorCaught(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if !settled {
            settled = true
            done.fail(ChannelError.eof)
        }
        context.fireChannelInactive()
    }
}

/// Bytes read from the channel, into an async stream.
private final class ByteStreamHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    let continuation: AsyncThrowingStream<ByteBuffer, any Error>.Continuation

    init(_ continuation: AsyncThrowingStream<ByteBuffer, any Error>.Continuation) {
        self.continuation = continuation
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        continuation.yield(unwrapInboundIn(data))
    }

    func channelInactive(context: ChannelHandlerContext) {
        continuation.finish()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        continuation.finish(throwing: error)
        context.close(promise: nil)
    }
}
