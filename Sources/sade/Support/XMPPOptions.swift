import ArgumentParser
import SADENet

/// The options that put a command's agents on an XMPP server (`sade send`, `sade platform`).
struct XMPPOptions: ParsableArguments {
    @Option(help: "An XMPP server, HOST:PORT, to put the agents on (beside TCP).", transform: HostPort.parse)
    var xmppServer: HostPort?

    @Option(help: "The password of the agents' XMPP accounts.")
    var password: String?

    @Flag(help: "Create the XMPP accounts by in-band registration (XEP-0077) first, as SPADE agents do; an existing account is fine.")
    var register = false

    @Option(help: "PEM authorities to trust for the XMPP server's certificate (default: the system's).")
    var xmppCAFile: String?

    @Flag(help: "Accept any certificate from the XMPP server: encrypted, not authenticated (test servers; SPADE's default).")
    var xmppAcceptAnyCertificate = false

    /// Whether the command goes on XMPP.
    var isOn: Bool { xmppServer != nil }

    func validate() throws {
        guard isOn else {
            guard password == nil, !register, xmppCAFile == nil, !xmppAcceptAnyCertificate else {
                throw ValidationError("--password, --register and the --xmpp-… trust options go with --xmpp-server")
            }
            return
        }
        guard let password, !password.isEmpty else { throw ValidationError("--xmpp-server needs --password") }
        guard xmppCAFile == nil || !xmppAcceptAnyCertificate else {
            throw ValidationError("--xmpp-ca-file and --xmpp-accept-any-certificate exclude each other")
        }
    }

    /// The transport's configuration for the XMPP `domain`.
    func configuration(domain: String) -> XMPPTransport.Configuration? {
        guard let server = xmppServer, let password else { return nil }
        let trust: XMPPConnection.Configuration.Trust =
            if let xmppCAFile { .authorities(file: xmppCAFile) } else if xmppAcceptAnyCertificate { .anyCertificate } else { .system }
        return XMPPTransport.Configuration(host: server.host, port: server.port, domain: domain, password: password, register: register, trust: trust)
    }

    /// Splits `user@domain`; `nil` when it is not a bare JID.
    static func bareJID(_ text: String) -> (user: String, domain: String)? {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, !text.contains("/"), !text.contains(where: \.isWhitespace) else { return nil }
        return (String(parts[0]), String(parts[1]))
    }
}
