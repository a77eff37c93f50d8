import ArgumentParser
import Foundation
import SADECore
import SADEExamples
import SADEIssueTrack
import SADENet
import SADENotification

/// `sade demo issues`: iMobile's issue track (§IV, Figure 3).
struct IssuesDemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "issues",
        abstract: "Six employees' agents hand on urgent issues by Contract Net, falling back to e-mail.",
        discussion: """
            Robert's agent runs here, on the company's platform with its DF and SQLite store; \
            the connected colleagues (Tony, Maria, Lucas) each run in a process of their own \
            linked over loopback TCP (or here, with --in-process); Julia and Pedro are out of \
            the office. With --discover no address is given to anyone: each phone publishes \
            its services in its own DF and is advertised on the local network by mDNS, and \
            Robert's agent finds the colleagues by a federated search of the platforms found \
            (iMobile's Bonjour). E-mails go to --smtp HOST:PORT, or are printed. Exits 0 when \
            the story completed, 1 otherwise.
            """
    )

    @Flag(help: "Run every agent in this process instead of one process per employee.")
    var inProcess = false

    @Flag(help: "No addresses: the phones advertise themselves on the local network (mDNS) and publish in their own DFs; Robert's agent finds them there.")
    var discover = false

    @Option(help: "The SMTP server for the e-mail fallback, as HOST:PORT; without it mails are printed.", transform: HostPort.parse)
    var smtp: HostPort?

    @Option(help: "Seconds an employee works on an issue before reporting it solved.")
    var workTime: Double = 1

    @Option(help: "Seconds each step may take before the demo gives up.")
    var timeout: Double = 60

    @Option(help: "A new directory to keep the company's database and outbox in; a temporary one, removed at the end, if omitted.")
    var data: String?

    func validate() throws {
        guard workTime >= 0, workTime <= 3600 else { throw ValidationError("--work-time must be between 0 and 3600 seconds") }
        guard timeout > 0, timeout <= 86_400 else { throw ValidationError("--timeout must be between 0 and 86400 seconds") }
        guard !(discover && inProcess) else { throw ValidationError("--discover needs the employees' own processes: drop --in-process") }
        if let data, FileManager.default.fileExists(atPath: (data as NSString).appendingPathComponent(SQLiteCompanyStore.fileName)) {
            throw ValidationError("--data must be a new directory: the demo seeds a company of its own, and \(data) already has one")
        }
    }

    func run() async throws {
        CommandLogging.bootstrapped
        let directory = data ?? FileManager.default.temporaryDirectory.appendingPathComponent("sade-issues-\(UUID().uuidString)").path
        defer { if data == nil { try? FileManager.default.removeItem(atPath: directory) } }
        let platform = Environment(name: "company")
        let narrator = Narrator(clock: platform.clock) { line in FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
        var transport: TCPTransport?
        if !inProcess {
            // A colleague whose process is gone is given up on after a few quick attempts.
            transport = try await TCPTransport.start(
                for: platform, configuration: TCPTransport.Configuration(port: 0, connectAttempts: 3, deliveryTimeout: .seconds(10)))
        }
        let mail: any NotificationChannel = smtp.map { server in
            EmailChannel(SMTPConfiguration(host: server.host, port: server.port, sender: "issues@acme.example", senderName: "Issue Track", timeout: .seconds(10)))
        } ?? PrintedMailChannel(narrator: narrator)
        let outbox = try NotificationOutbox(
            directory: directory, channels: [mail], configuration: .init(maxAttempts: 3, initialBackoff: .seconds(1)),
            clock: OutboxClock(clock: platform.clock, origin: Date()))
        let store = try SQLiteCompanyStore(directory: directory)
        var discovery: PlatformDiscovery?
        var sightings: PlatformSightings?
        if discover, let transport {
            let seen = PlatformSightings()
            let (changes, report) = AsyncStream.makeStream(of: PlatformDiscovery.Change.self)
            Task { for await change in changes { await seen.take(change) } }  // one reader: in the order heard
            do {
                discovery = try await PlatformDiscovery.start(for: platform, transport: transport) { change in report.yield(change) }
            } catch {
                await transport.shutdown()
                FileHandle.standardError.write(Data("sade demo issues: discovery: \(error)\n".utf8))
                throw ExitCode.failure
            }
            sightings = seen
        }
        let launcher: any ColleagueLauncher = inProcess
            ? InProcessColleagues(platform: platform, store: store, calendar: outbox.clock, workTime: .milliseconds(Int64(workTime * 1000)))
            : EmployeeProcesses(dataDirectory: directory, workTime: workTime, narrator: narrator, sightings: sightings)
        narrator.say(
            "Demo",
            inProcess
                ? "every agent in this process"
                : discover
                    ? "company platform advertised on the network as \(platform.name).\(PlatformDiscovery.serviceType); one process per connected employee, no address given"
                    : "company platform on \(transport?.addresses.first ?? "?"); one process per connected employee")

        let demo = IssueTrackDemo(timeout: .milliseconds(Int64(timeout * 1000)), discovering: discover)
        do {
            let report = try await demo.run(on: platform, store: store, outbox: outbox, launcher: launcher, narrator: narrator)
            await discovery?.stop()
            await transport?.shutdown()
            let solved = report.resolution.solved && report.outage.takenBy == "tony"
            narrator.say("Demo", "issue \(report.outage.issue.label) \(solved ? "taken and solved by Tony" : "not solved"); "
                + "\(report.prototype.issue.label) e-mailed to its providers")
            if !solved { throw ExitCode.failure }
        } catch let failure as IssueTrackDemo.Failure {
            await discovery?.stop()
            await transport?.shutdown()
            FileHandle.standardError.write(Data("sade demo issues: \(failure)\n".utf8))
            throw ExitCode.failure
        }
    }
}
