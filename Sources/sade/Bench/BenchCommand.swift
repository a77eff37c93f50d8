import ArgumentParser
import Foundation

/// `sade bench`: the benchmark suites, each against a baseline measured in the same
/// run, and with `--peers` against other agent platforms.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure agent spawning, messaging, reasoning, protocols, codecs and ingest (build with -c release).",
        discussion: """
            Each suite runs once to warm up, then several times; the median is printed with its spread \
            and the ratio to a baseline measured in the same run (value ÷ baseline). Suites: \
            \(BenchSuites.all.map(\.name).joined(separator: ", ")) (http-ingest starts 'sade serve' as a \
            second process). See BENCHMARKS.md.
            """
    )

    @Option(help: "Run only this suite.")
    var suite: String?

    @Flag(help: "Small sizes and one measured run: seconds, for CI; the figures only prove the harness works.")
    var quick = false

    @Option(help: "A PostgreSQL server (postgres://user@host:port/db) for the pg-ingest suite; it makes and drops a database of its own there.")
    var database: String?

    @Flag(help: "Print one JSON array of {suite, figure, value, unit, baseline, ratio} instead of a table.")
    var json = false

    @Flag(help: "Also run the peer platforms (SPADE, python agentspeak) from Benchmarks/peers in a virtualenv under .build/bench-venv.")
    var peers = false

    func validate() throws {
        if let suite, BenchSuites.named(suite) == nil {
            throw ValidationError("unknown suite '\(suite)'; one of: \(BenchSuites.all.map(\.name).joined(separator: ", "))")
        }
    }

    func run() async throws {
        // Only errors, unless SADE_LOG_LEVEL says otherwise: the platforms measured must not print.
        setenv("SADE_LOG_LEVEL", "error", 0)
        CommandLogging.bootstrapped
        let suites = suite.map { [BenchSuites.named($0)!] } ?? BenchSuites.all.filter { !$0.isOnDemand }
        var figures: [BenchFigure] = []
        let report = BenchReport(json: json)
        report.header(quick: quick)
        for suite in suites {
            report.starting(suite)
            ProcessMemory.resetPeak()
            let context = BenchContext(quick: quick, suite: suite.name, database: database)
            var suiteFigures = try await suite.run(in: context)
            let peak = Double(ProcessMemory.peakResidentBytes) / 1_048_576
            suiteFigures.append(context.figure("peak RSS", BenchStatistic([peak]), unit: "MiB"))
            if peers { suiteFigures += try await PeerRunner(quick: quick).figures(besides: suiteFigures, suite: suite.name) }
            report.print(suiteFigures)
            figures += suiteFigures
        }
        report.finish(figures)
    }
}
