import ArgumentParser

/// `sade home`: the smart home from the command line.
struct HomeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "home",
        abstract: "The smart home for assisted living: simulate a gateway, import or replay CASAS datasets, evaluate the activity detectors.",
        subcommands: [HomeSimulateCommand.self, HomeImportCommand.self, HomeEvaluateCommand.self, HomeProfileCommand.self]
    )
}
