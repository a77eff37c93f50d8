import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import HummingbirdWebSocket
import Logging
import SADEIssueTrack
import SADEMonitoring

/// The monitoring server's HTTP face: the web dashboard at `/`, the JSON API under
/// `/api/v1`, the wearable thesis's `/Api` routes, `/openapi.json`, `/health` and
/// `/metrics`, on a
/// ``MonitoringSystem``.
///
/// ```swift
/// ServerMetrics.bootstrap()  // before the system: what it measures is shown at /metrics
/// let system = try await MonitoringSystem(configuration: .init(dataDirectory: "sade-data"))
/// let server = await MonitoringServer(system: system, configuration: ServerConfiguration(port: 8080))
/// try await server.makeApplication().runService()  // throws when the TLS files do not fit
/// ```
public struct MonitoringServer: Sendable {
    /// The application behind the API.
    public let system: MonitoringSystem
    /// How the server listens and what it allows.
    public let configuration: ServerConfiguration
    /// Signs and checks login tokens.
    public let tokens: TokenIssuer
    let limiter: RateLimiter
    let addressLimiter: RateLimiter
    let loginLimiter: RateLimiter
    /// Failed logins per account, slowing guesses from any number of addresses.
    let loginBackOff: LoginBackOff
    /// The live-stream tickets this node has let in.
    let usedTickets = SpentTokens()
    /// The inspector agents admins send messages from.
    let inspectorDesk: InspectorDesk
    /// Where `GET /metrics` reads.
    public let metrics: ServerMetrics
    /// The home event bus's subscriptions, fed from one subscription to the home service.
    let homeFanOut: HomeBusFanOut
    /// iMobile's issue track, served under `/api/v1/issues` and `/api/v1/company`
    /// (503 there when `nil`); started and stopped by its owner.
    public let issueTrack: IssueTrackOffice?

    /// A server for `system`; `now` is the clock tokens expire by (the system's by default).
    /// `GET /metrics` shows the registry of the task's or the process's swift-metrics
    /// factory (see ``ServerMetrics``).
    public init(
        system: MonitoringSystem, configuration: ServerConfiguration, issueTrack: IssueTrackOffice? = nil, now: (@Sendable () -> Date)? = nil
    ) async {
        self.system = system
        metrics = ServerMetrics()
        self.issueTrack = issueTrack
        self.configuration = configuration
        homeFanOut = HomeBusFanOut(home: system.home)
        inspectorDesk = InspectorDesk(now: { [system] in system.now() })
        tokens = await TokenIssuer(
            secret: configuration.tokenSecret ?? TokenIssuer.randomSecret(), lifetime: configuration.tokenLifetime,
            now: now ?? { [system] in system.now() })
        limiter = RateLimiter(rate: configuration.requestsPerSecond, burst: configuration.requestBurst)
        addressLimiter = RateLimiter(rate: configuration.requestsPerSecondPerAddress, burst: configuration.requestsPerSecondPerAddress * 2)
        loginLimiter = RateLimiter(rate: configuration.loginAttemptsPerSecond, burst: configuration.loginBurst)
        loginBackOff = LoginBackOff(now: tokens.now)
    }

    /// The routes, with error mapping, authentication and rate limiting in front.
    public func makeRouter() -> Router<MonitoringRequestContext> {
        let router = Router(context: MonitoringRequestContext.self, options: .caseInsensitive)
        // Outermost: every answer carries the security headers (HTTPS only, with TLS), errors included.
        router.add(middleware: SecurityHeadersMiddleware(strictTransportSecurity: configuration.tls?.strictTransportSecurityHeader))
        if !configuration.trustedProxies.isEmpty { router.add(middleware: ClientAddressMiddleware(trustedProxies: configuration.trustedProxies)) }
        router.add(middleware: UploadLimitMiddleware(limit: configuration.maxBodyBytes))
        router.add(middleware: MetricsMiddleware())
        router.add(middleware: ErrorMiddleware())
        router.add(middleware: AuditMiddleware(trail: system.audit, now: tokens.now))
        router.add(middleware: RateLimitMiddleware(limiter: addressLimiter, byAddress: true))
        router.add(middleware: DashboardMiddleware(directory: configuration.dashboardDirectory))
        router.add(middleware: AuthMiddleware(authenticator: authenticator))
        router.add(middleware: RateLimitMiddleware(limiter: limiter))
        addHealthRoutes(to: router)
        addMetricsRoutes(to: router)
        addOpenAPIRoutes(to: router)
        addWearableRoutes(to: router)
        let api = router.group("api/v1")
        addAuthRoutes(to: api)
        addPatientRoutes(to: api)
        addObservationRoutes(to: api)
        addAlertRoutes(to: api)
        addEventRoutes(to: api)
        addUserRoutes(to: api)
        addHospitalRoutes(to: api)
        addStaffRoutes(to: api)
        addPatientAdminRoutes(to: api)
        addPatientRelativeRoutes(to: api)
        addDeviceTokenRoutes(to: api)
        addFHIRExportRoutes(to: api)
        addFHIRImportRoutes(to: api)
        addIssueTrackRoutes(to: api)
        addHomeRoutes(to: api)
        addAuditRoutes(to: api)
        addPrivacyRoutes(to: api)
        addAgentRoutes(to: api)
        addPushRoutes(to: api)
        addPushActionRoutes(to: api)
        return router
    }

    /// Whether `address` is an IPv4 or IPv6 address (what a trusted proxy is named by).
    public static func isIPAddress(_ address: String) -> Bool { ClientAddressMiddleware.isIPAddress(address) }

    /// Refuses with 429 a client address that attempts logins or registrations faster
    /// than allowed (each costs a bcrypt hash).
    func limitLoginAttempts(_ context: MonitoringRequestContext) throws {
        try loginLimiter.admit("ip:\(context.remoteAddress ?? "unknown")")
    }

    /// Who is behind a bearer token.
    var authenticator: Authenticator {
        Authenticator(tokens: tokens, accounts: system.accounts, devices: system.devices, tickets: usedTickets)
    }

    /// The home event bus on this server's system.
    var homeBus: HomeBus {
        HomeBus(home: system.home, authenticator: authenticator, fanOut: homeFanOut, audit: system.audit, now: tokens.now)
    }

    /// A Hummingbird application serving ``makeRouter()``, and the home event bus's
    /// WebSocket upgrades — over TLS when the configuration has ``ServerTLS``;
    /// `onServerRunning` learns the bound port (useful with port 0).
    ///
    /// - Throws: ``ServerTLS/Failure`` when the certificate or key cannot be used.
    public func makeApplication(
        logger: Logger = Logger(label: "sade.server"), onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) throws -> some ApplicationProtocol {
        let webSocketResponder = homeBus.router().buildResponder()
        var server = HTTPServerBuilder { responder in
            FirstRequestGuard(
                base: HTTP1WebSocketUpgradeChannel(
                    responder: responder, webSocketResponder: webSocketResponder,
                    configuration: .init(ws: .init(maxFrameSize: HomeBus.maximumMessage))),
                timeout: configuration.firstRequestTimeout)
        }
        if let tls = configuration.tls {
            let settings = try tls.configuration()
            do {
                server = try .tls(server, tlsConfiguration: settings)
            } catch {
                throw ServerTLS.Failure(description: "TLS cannot be set up: \(error)")
            }
        }
        return Application(
            router: makeRouter(),
            server: server,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "sade"),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) },
            logger: logger)
    }
}
