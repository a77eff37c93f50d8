import Foundation

/// How the HTTP server listens and what it allows.
public struct ServerConfiguration: Sendable {
    /// The interface to listen on.
    public var host: String
    /// The port; 0 picks a free one.
    public var port: Int
    /// The largest request body accepted, in bytes (413 beyond it).
    public var maxBodyBytes: Int
    /// 1 MiB.
    public static let defaultMaxBodyBytes = 1 << 20
    /// The largest batch of observations in one request.
    public var maxBatchSamples: Int
    /// Requests per second each client may make on average (429 beyond it).
    public var requestsPerSecond: Double
    /// How many requests a client may make at once before the average applies.
    public var requestBurst: Double
    /// Requests per second one IP address may make, whoever it is, before any token is
    /// checked (a cap on anonymous floods; set well above ``requestsPerSecond``).
    public var requestsPerSecondPerAddress: Double
    /// Logins and registrations per second one IP address may attempt (each costs a
    /// bcrypt hash).
    public var loginAttemptsPerSecond: Double
    /// How many login attempts an address may make at once before the rate applies.
    public var loginBurst: Double
    /// How long a login token is valid.
    public var tokenLifetime: TimeInterval
    /// The key that signs login tokens; a random one (tokens die with the process) when `nil`.
    public var tokenSecret: String?
    /// A folder to serve the web dashboard from, read again at every request (for
    /// working on the dashboard without rebuilding); the assets built into the module
    /// when `nil`.
    public var dashboardDirectory: URL?
    /// The addresses of the proxies in front of the server (a load balancer such as
    /// nginx before several nodes): for a request from one of them, the client is the
    /// address its `X-Forwarded-For` names, for rate limits and logins. Anyone else's
    /// `X-Forwarded-For` is ignored.
    public var trustedProxies: Set<String>
    /// The server's certificate and key: HTTPS only (with HSTS) when set.
    public var tls: ServerTLS?
    /// How long a new connection may take to send its first request's head before it is
    /// closed (a client that connects and says nothing holds no connection for ever).
    public var firstRequestTimeout: Duration

    /// A configuration.
    public init(
        host: String = "127.0.0.1", port: Int = 8080, maxBodyBytes: Int = defaultMaxBodyBytes, maxBatchSamples: Int = 5000,
        requestsPerSecond: Double = 200, requestBurst: Double = 400, requestsPerSecondPerAddress: Double = 2000,
        loginAttemptsPerSecond: Double = 5, loginBurst: Double = 50, tokenLifetime: TimeInterval = 8 * 3600,
        tokenSecret: String? = nil, dashboardDirectory: URL? = nil, trustedProxies: Set<String> = [], tls: ServerTLS? = nil,
        firstRequestTimeout: Duration = .seconds(60)
    ) {
        self.host = host
        self.port = port
        self.maxBodyBytes = maxBodyBytes
        self.maxBatchSamples = maxBatchSamples
        self.requestsPerSecond = requestsPerSecond
        self.requestBurst = requestBurst
        self.requestsPerSecondPerAddress = requestsPerSecondPerAddress
        self.loginAttemptsPerSecond = loginAttemptsPerSecond
        self.loginBurst = loginBurst
        self.tokenLifetime = tokenLifetime
        self.tokenSecret = tokenSecret
        self.dashboardDirectory = dashboardDirectory
        self.trustedProxies = trustedProxies
        self.tls = tls
        self.firstRequestTimeout = firstRequestTimeout
    }
}
