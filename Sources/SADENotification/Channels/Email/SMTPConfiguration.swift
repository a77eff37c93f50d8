/// Where and how the e-mail channel reaches its SMTP server.
public struct SMTPConfiguration: Hashable, Sendable {
    /// How the connection is secured.
    public enum Security: Hashable, Sendable {
        /// Plain text (a relay on the same machine or network).
        case none
        /// Upgrade with STARTTLS after the greeting; `verifyCertificate: false` only for tests.
        case startTLS(verifyCertificate: Bool = true)
    }

    /// The server's host.
    public var host: String
    /// The server's port (25, 587 for submission, …).
    public var port: Int
    /// How the connection is secured.
    public var security: Security
    /// User name for AUTH PLAIN or LOGIN; no authentication when `nil`.
    public var username: String?
    /// Password for AUTH.
    public var password: String?
    /// The sender's address, used in `MAIL FROM` and the `From` header.
    public var sender: String
    /// A display name for the `From` header.
    public var senderName: String?
    /// The name this client gives in `EHLO`.
    public var clientName: String
    /// How long one whole delivery (connect to QUIT) may take.
    public var timeout: Duration

    /// Creates a configuration.
    public init(
        host: String, port: Int = 25, security: Security = .none, username: String? = nil, password: String? = nil,
        sender: String, senderName: String? = "SADE", clientName: String = "sade.localdomain", timeout: Duration = .seconds(30)
    ) {
        self.host = host
        self.port = port
        self.security = security
        self.username = username
        self.password = password
        self.sender = sender
        self.senderName = senderName
        self.clientName = clientName
        self.timeout = timeout
    }
}
