import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import SADEHome
import SADEMonitoring

/// The home event bus: a WebSocket API at `/api/v1/home/websocket` shaped like Home
/// Assistant's (auth phase, numbered commands, results, subscriptions) with the AAL
/// thesis's seven `REQUEST_*` commands (`homer/request`).
struct HomeBus: Sendable {
    /// Where the bus listens.
    static let path = "/api/v1/home/websocket"
    /// The version the bus names in `auth_required`.
    static let version = "sade-home-1"
    /// The largest message a client may send (a bigger one closes the socket with 1009).
    static let maximumMessage = 1 << 16
    /// How long a client has to authenticate before the socket is closed (1008).
    static let authenticationTimeout: Duration = .seconds(10)

    let home: HomeService
    let authenticator: Authenticator
    let fanOut: HomeBusFanOut
    /// Where the bus's authentications and commands are audited (its WebSocket bypasses the router's middleware).
    let audit: AuditTrail
    let now: @Sendable () -> Date

    /// The router that upgrades requests to the bus's path.
    func router() -> Router<BasicWebSocketRequestContext> {
        let router = Router(context: BasicWebSocketRequestContext.self)
        router.ws(RouterPath(stringLiteral: Self.path)) { inbound, outbound, context in
            let flat = context.request.uri.queryParameters["flat_id"].flatMap { Int64(String($0)) }
            try await serve(inbound: inbound, outbound: outbound, flat: flat, logger: context.logger)
        }
        return router
    }

    /// One client: the auth phase, then commands until the socket closes.
    func serve(
        inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, flat: FlatID?, address: String? = nil, logger: Logger
    ) async throws {
        var caller: UserAccount?
        /// One entry: the bus's path and what was asked, who asked and how it ended.
        func record(_ what: String, action: AuditAction, status: Int, detail: String? = nil) async {
            let event = AuditEvent(
                at: now(), actor: caller?.username, role: caller?.role, action: action, target: "WS \(Self.path) \(what)", status: status,
                address: address, detail: detail)
            do { try await audit.record(event) } catch { logger.error("the audit trail cannot be written: \(error)") }
        }
        try await outbound.write(.text(HomeBusSession.encode(["type": "auth_required", "ha_version": Self.version])))
        let timeout = Task {
            try await Task.sleep(for: Self.authenticationTimeout)
            try await outbound.close(.policyViolation, reason: "authentication timed out")
        }
        var session: HomeBusSession?
        var expiry: Task<Void, any Error>?
        defer {
            timeout.cancel()
            expiry?.cancel()
            if let session { Task { await session.close() } }
        }
        for try await message in inbound.messages(maxSize: Self.maximumMessage) {
            guard case .text(let text) = message else {
                try await outbound.write(.text(HomeBusSession.encode(HomeBusSession.failure(id: nil, .invalidFormat("send JSON text, not binary")))))
                continue
            }
            if let session {
                let (type, failed) = await session.handle(text)
                if type != "ping" {
                    let changes: Set<String?> = ["call_service", "homer/post_events", "homer/confirm_message", "homer/request"]
                    await record(type ?? "(no type)", action: changes.contains(type) ? .change : .read, status: failed ? 400 : 200)
                }
                continue
            }
            switch await authenticate(text, flat: flat) {
            case .success(let opened):
                timeout.cancel()
                caller = opened.caller
                await record("auth", action: .read, status: 200, detail: "flats \(opened.flats.sorted().map(String.init).joined(separator: ","))")
                session = HomeBusSession(home: home, fanOut: fanOut, caller: opened.caller, flats: opened.flats, outbound: outbound, logger: logger)
                try await outbound.write(.text(HomeBusSession.encode(["type": "auth_ok", "ha_version": Self.version])))
                if let expiresAt = opened.expiresAt { expiry = closing(outbound, at: expiresAt) }
            case .failure(let error):
                await record("auth", action: .read, status: 401, detail: error.message)
                try await outbound.write(.text(HomeBusSession.encode(["type": "auth_invalid", "message": error.message])))
                try await outbound.close(.policyViolation, reason: "authentication failed")
                return
            }
        }
    }

    /// Closes the socket (1008) when the login token it was opened with expires.
    private func closing(_ outbound: WebSocketOutboundWriter, at expiry: Date) -> Task<Void, any Error> {
        Task { [home] in
            try await home.clock.sleep(until: expiry)
            try await outbound.write(.text(HomeBusSession.encode(["type": "auth_invalid", "message": "the access token expired: authenticate again"])))
            try await outbound.close(.policyViolation, reason: "token expired")
        }
    }

    /// Checks the `auth` message and finds the flats the caller may see (only `flat`
    /// when the URL names one).
    func authenticate(_ text: String, flat: FlatID?) async -> Result<(caller: UserAccount, flats: Set<FlatID>, expiresAt: Date?), HomeBusError> {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
            object["type"] as? String == "auth", let token = object["access_token"] as? String
        else { return .failure(.invalidFormat("expected {\"type\": \"auth\", \"access_token\": …}")) }
        do {
            let (caller, expiresAt) = try await authenticator.account(forToken: token)
            let visible = HomeAccess.flats(of: caller, among: try await home.store.flats()).map(\.id)
            if let flat {
                guard visible.contains(flat) else { return .failure(.unauthorized("you may not see flat \(flat)")) }
                return .success((caller, [flat], expiresAt))
            }
            return .success((caller, Set(visible), expiresAt))
        } catch {
            return .failure(.unauthorized("invalid access token: \(error)"))
        }
    }
}
