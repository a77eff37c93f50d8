import ArgumentParser
import Foundation
import SADENotification

/// `sade notify`: sends one test notification through a channel, so operators can
/// check their SMTP or webhook configuration.
struct NotifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notify",
        abstract: "Send a test notification by e-mail (--smtp) or webhook (--webhook) and print the outcome.",
        discussion: """
            Examples: sade notify --smtp mail.example.org:587 --starttls --user sade --password secret \
            --from sade@example.org --to ward@example.org --subject Test --body "Hello". \
            sade notify --webhook https://example.org/hook --secret s3cret --subject Test --body "Hello". \
            Exits 1 when the notification could not be delivered.
            """
    )

    @OptionGroup var mail: SMTPOptions

    @Option(help: "A recipient's e-mail address; repeat for several.")
    var to: [String] = []

    @Option(help: "The webhook URL to POST to.")
    var webhook: String?

    @Option(help: "The webhook's shared secret for the X-SADE-Signature header.")
    var secret: String?

    @Option(help: "Severity: silent, information, warning or alarm.")
    var severity: String = "information"

    @Option(help: "The subject (notification title).")
    var subject: String = "SADE test notification"

    @Option(help: "The body.")
    var body: String = "This is a test notification from SADE."

    @Option(help: "Seconds to wait for the server.")
    var timeout: Double = 30

    func validate() throws {
        guard (mail.smtp == nil) != (webhook == nil) else { throw ValidationError("give exactly one of --smtp HOST:PORT or --webhook URL") }
        if mail.smtp != nil, to.isEmpty { throw ValidationError("--smtp needs at least one --to address") }
        if let webhook, URL(string: webhook)?.scheme.map({ ["http", "https"].contains($0) }) != true {
            throw ValidationError("--webhook must be an http or https URL")
        }
        guard NotificationSeverity(rawValue: severity) != nil else {
            throw ValidationError("--severity must be one of silent, information, warning, alarm")
        }
        guard timeout > 0, timeout <= 3600 else { throw ValidationError("--timeout must be between 0 and 3600 seconds") }
    }

    func run() async throws {
        let channel: any NotificationChannel
        var recipients: [Recipient] = []
        if let configuration = mail.configuration(timeout: .seconds(timeout)) {
            channel = EmailChannel(configuration)
            recipients = to.map(Recipient.email)
        } else {
            channel = WebhookChannel(url: webhook!, secret: secret, timeout: .seconds(timeout))
        }
        let notification = Notice(
            recipients: recipients, severity: NotificationSeverity(rawValue: severity)!, title: subject, body: body)
        do {
            try await channel.deliver(notification)
            print("delivered by \(channel.name): notification \(notification.id)")
        } catch {
            FileHandle.standardError.write(Data("sade notify: not delivered: \(error)\n".utf8))
            throw ExitCode.failure
        }
    }
}
