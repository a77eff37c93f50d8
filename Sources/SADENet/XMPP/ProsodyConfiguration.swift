/// A Prosody configuration for a local XMPP server to put agents on: one virtual host
/// `localhost`, clients on `port` of the loopback with TLS required (the certificate and
/// key given), open in-band registration, SCRAM accounts, no server-to-server links and
/// no offline storage (a message to someone offline bounces at once). The tests and
/// `sade bench --suite xmpp` run Prosody with it: `prosody -F --config <file>`.
public enum ProsodyConfiguration {
    /// The configuration file's text; Prosody keeps its state under `directory`.
    public static func text(directory: String, port: Int, certificate: String, key: String) -> String {
        """
        pidfile = "\(directory)/prosody.pid"
        data_path = "\(directory)/data"
        run_as_root = true
        interfaces = { "127.0.0.1" }
        c2s_ports = { \(port) }
        s2s_ports = { }
        http_ports = { }
        https_ports = { }
        c2s_direct_tls_ports = { }
        modules_enabled = { "roster"; "saslauth"; "tls"; "disco"; "register"; "ping"; "posix" }
        modules_disabled = { "s2s"; "offline" }
        allow_registration = true
        min_seconds_between_registrations = 0
        c2s_require_encryption = true
        authentication = "internal_hashed"
        storage = "internal"
        certificates = "\(directory)"
        log = { info = "*console" }
        VirtualHost "localhost"
            ssl = { certificate = "\(certificate)"; key = "\(key)" }
        """
    }

    /// The line Prosody logs once it accepts clients on `port`.
    public static func readyLine(port: Int) -> String {
        "Activated service 'c2s' on [127.0.0.1]:\(port)"
    }
}
