import ArgumentParser
import SADENotification

/// The SMTP server and account of the commands that send e-mail (`sade serve`, `sade
/// notify`), one option group so both spell and check them alike. `sade notify`'s
/// short names (`--from`, `--user`, `--password`, `--starttls`, `--insecure`) are kept.
struct SMTPOptions: ParsableArguments {
    @Option(help: "The SMTP server, as HOST:PORT (e.g. localhost:2525).", transform: HostPort.parse)
    var smtp: HostPort?

    @Option(name: [.customLong("smtp-from"), .customLong("from")], help: "The sender's e-mail address.")
    var from = "sade@localhost"

    @Option(name: [.customLong("smtp-user"), .customLong("user")], help: "SMTP user name (AUTH PLAIN or LOGIN).")
    var user: String?

    @Option(name: [.customLong("smtp-password"), .customLong("password")], help: "SMTP password.")
    var password: String?

    @Flag(name: [.customLong("smtp-starttls"), .customLong("starttls")], help: "Upgrade the SMTP connection with STARTTLS.")
    var starttls = false

    @Flag(name: [.customLong("smtp-insecure"), .customLong("insecure")], help: "With STARTTLS: accept any certificate (tests only).")
    var insecure = false

    func validate() throws {
        guard smtp != nil || (user == nil && password == nil && !starttls) else { throw ValidationError("--smtp-user, --smtp-password and --smtp-starttls need --smtp HOST:PORT") }
        guard (user == nil) == (password == nil) else { throw ValidationError("give both --smtp-user and --smtp-password, or neither") }
    }

    /// The configuration, when `--smtp` is given.
    func configuration(senderName: String? = "SADE", timeout: Duration = .seconds(30)) -> SMTPConfiguration? {
        smtp.map { server in
            SMTPConfiguration(
                host: server.host, port: server.port, security: starttls ? .startTLS(verifyCertificate: !insecure) : .none, username: user,
                password: password, sender: from, senderName: senderName, timeout: timeout)
        }
    }
}
