import ArgumentParser

/// `sade`: the SADE command — the examples, platforms and messages between them
/// (`platform`, `send`, `acl`), health tools (`news2`, `fhir`) and `notify`; the
/// monitoring server, simulator and benchmarks as they land.
@main
struct SadeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sade",
        abstract: "SADE: agents with BDI reasoning for health applications.",
        subcommands: [
            DemoCommand.self, PlatformCommand.self, SendCommand.self, AclCommand.self, News2Command.self, FhirCommand.self,
            NotifyCommand.self, ServeCommand.self, SimulateCommand.self, BenchCommand.self, IssueEmployeeCommand.self, HomeCommand.self, AuditCommand.self, KeysCommand.self, DiscoverCommand.self,
        ]
    )
}

/// `sade demo …`: the classic examples, printing what the agents do.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run a classic example and print what its agents do.",
        subcommands: [FireDemoCommand.self, IssuesDemoCommand.self]
    )
}
