import Foundation
import SADETestSupport
import SADETestTiming
import Testing

/// `sade bench --quick --json` is run so that the harness never rots; its figures come
/// from a debug build and tiny workloads, so only their presence is checked, never a target.
@Suite("sade bench --quick (the harness works; figures are not judged)", .timeLimit(.minutes(6)), .timed)
struct BenchQuickTests {
    /// One object of the JSON array `sade bench --json` prints.
    struct Figure: Decodable {
        let suite: String
        let figure: String
        let value: Double?
        let unit: String
        let baseline: Double?
        let ratio: Double?
    }

    /// The suites `sade bench` runs without naming them (peers need PyPI).
    static let suites = ["spawn", "pingpong", "ring", "bdi", "contractnet", "acl", "ingest", "tcp", "http-ingest", "home", "push"]

    @Test("every suite prints finite positive figures, with a ratio wherever there is a baseline")
    func quickJSONHasEveryFigure() async throws {
        let result = try await SadeProcess.run(["bench", "--quick", "--json"])
        #expect(result.status == 0, "stderr: \(result.error)")
        let figures = try JSONDecoder().decode([Figure].self, from: Data(result.output.utf8))
        #expect(Set(figures.map(\.suite)) == Set(Self.suites))
        for suite in Self.suites {
            let ofSuite = figures.filter { $0.suite == suite }
            #expect(ofSuite.count >= 2, "\(suite) printed \(ofSuite.count) figures")
            #expect(ofSuite.contains { $0.figure == "peak RSS" && $0.unit == "MiB" }, "\(suite) has no peak RSS")
        }
        for figure in figures {
            let value = try #require(figure.value, "\(figure.suite) / \(figure.figure) has no value")
            #expect(value.isFinite && value > 0, "\(figure.suite) / \(figure.figure) = \(value)")
            #expect((figure.baseline == nil) == (figure.ratio == nil), "\(figure.suite) / \(figure.figure)")
            if let baseline = figure.baseline, let ratio = figure.ratio {
                #expect(baseline.isFinite && baseline > 0 && ratio.isFinite && ratio > 0, "\(figure.suite) / \(figure.figure)")
            }
        }
    }

    @Test("the xmpp suite (on demand) prints SADE↔SADE, SADE↔SPADE and SPADE↔SADE round trips against SPADE↔SPADE on one Prosody")
    func xmppSuite() async throws {
        try TestTools.requireCommands(["prosody", "openssl"])
        try await TestTools.requirePython(modules: ["spade"])
        let result = try await SadeProcess(
            ["bench", "--suite", "xmpp", "--quick", "--json"], directory: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent(),  // the peers' scripts are in Benchmarks/peers
            environment: ["SADE_BENCH_PYTHON": TestTools.python.path]
        ).finish()
        #expect(result.status == 0, "stderr: \(result.error)")
        let figures = try JSONDecoder().decode([Figure].self, from: Data(result.output.utf8))
        let names = Set(figures.map(\.figure))
        for direction in ["SADE → SADE", "SADE → SPADE", "SPADE → SADE"] {
            #expect(names.contains("round trip p50, \(direction)"), "\(names)")
        }
        for figure in figures where figure.figure.hasPrefix("round trip") {
            let (value, baseline) = (try #require(figure.value), try #require(figure.baseline, "\(figure.figure) has no SPADE baseline"))
            #expect(value.isFinite && value > 0 && baseline.isFinite && baseline > 0, "\(figure.figure)")
        }
    }

    @Test("an unknown suite is refused with the list of suites")
    func unknownSuiteIsRefused() async throws {
        let result = try await SadeProcess.run(["bench", "--suite", "nope"])
        #expect(result.status != 0)
        #expect(result.error.contains("unknown suite 'nope'") && result.error.contains("pingpong"))
    }
}
