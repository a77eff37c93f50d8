import ArgumentParser
import Foundation
import SADECore
import SADEIssueTrack
import SADENet
import SADENotification

/// `sade issues-employee` (hidden): one employee's phone in `sade demo issues` — a
/// platform of its own with the employee's ``IssueAgent``, linked to the company over TCP.
struct IssueEmployeeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "issues-employee",
        abstract: "Run one employee's IssueAgent on a platform of its own (started by 'sade demo issues').",
        discussion: """
            Reads the employee and their work from the company's database, publishes their \
            services in the company's DF (or, with --discover, in the phone's own DF, the phone \
            advertised on the network by mDNS) and answers offers until SIGINT or SIGTERM (or, \
            with --exit-when-input-closes, until standard input closes). Prints \
            'employee ID ready on tcp://HOST:PORT' once published.
            """,
        shouldDisplay: false
    )

    @Option(help: "The company's data directory (issuetrack.sqlite).")
    var data: String

    @Option(help: "The employee's id.")
    var employee: String

    @Option(help: "The company's DF, as df@PLATFORM@tcp://HOST:PORT.")
    var directory: String?

    @Flag(help: "Publish in this phone's own DF and advertise the phone on the network (mDNS) instead of using a company DF.")
    var discover = false

    @Option(help: "Seconds the employee works on an issue before reporting it solved.")
    var workTime: Double = 1

    @Flag(help: "Stop when standard input closes (the parent process ended).")
    var exitWhenInputCloses = false

    func validate() throws {
        if discover {
            guard directory == nil else { throw ValidationError("--directory and --discover exclude each other") }
        } else {
            guard let directory, SendCommand.receiver(from: directory) != nil else {
                throw ValidationError("--directory must be df@PLATFORM@tcp://HOST:PORT (or use --discover)")
            }
        }
        guard workTime >= 0, workTime <= 86_400 else { throw ValidationError("--work-time must be between 0 and 86400 seconds") }
    }

    func run() async throws {
        CommandLogging.bootstrapped
        await TerminationSignal.install()  // before the phone is announced: a SIGTERM right after must stop it cleanly
        let store = try SQLiteCompanyStore(directory: data)
        guard let person = try await store.employee(employee) else {
            FileHandle.standardError.write(Data("sade issues-employee: \(IssueTrackError.unknownEmployee(employee))\n".utf8))
            throw ExitCode.failure
        }
        let platform = Environment(name: "phone-\(person.id)")
        let transport = try await TCPTransport.start(for: platform, configuration: TCPTransport.Configuration(port: 0, drainTimeout: .seconds(2)))
        var discovery: PlatformDiscovery?
        if discover {
            do {
                discovery = try await PlatformDiscovery.start(for: platform, transport: transport)
            } catch {
                FileHandle.standardError.write(Data("sade issues-employee: discovery: \(error)\n".utf8))
                await transport.shutdown()
                throw ExitCode.failure
            }
        }
        let agent = IssueAgent(
            employee: person, environment: platform, directory: directory.flatMap(SendCommand.receiver(from:)) ?? platform.dfIdentifier,
            calendar: OutboxClock(clock: platform.clock, origin: Date()), workload: try await store.work(of: person.id),
            resolveAfter: .milliseconds(Int64(workTime * 1000)))
        try await agent.start()
        say("employee \(person.id) ready on \(transport.addresses.joined(separator: " "))")

        // Neither wait can be cancelled, so the first to end wins and the other is left behind.
        let (ended, end) = AsyncStream.makeStream(of: Bool.self)
        Task { _ = await TerminationSignal.wait(); end.yield(true) }
        if exitWhenInputCloses { Task { await Self.inputClosed(); end.yield(false) } }
        var parentAlive = true
        for await signalled in ended {
            parentAlive = signalled
            break
        }
        await discovery?.stop()  // goodbye: the others forget this phone at once
        await agent.stop(withdrawingServices: parentAlive)  // an orphan does not wait for the company's DF
        await transport.shutdown()
        say("employee \(person.id) stopped")
    }

    /// Returns once standard input reaches its end. Watched by a dispatch source rather
    /// than a thread blocked in `read`: a thread started before the signal sources could
    /// take SIGTERM for itself, and the signal would be lost.
    @MainActor private static func inputClosed() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let source = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: .main)
            var buffer = [UInt8](repeating: 0, count: 512)
            source.setEventHandler {
                if read(STDIN_FILENO, &buffer, buffer.count) <= 0 {
                    source.cancel()
                    continuation.resume()
                }
            }
            source.resume()
        }
    }

    private func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
