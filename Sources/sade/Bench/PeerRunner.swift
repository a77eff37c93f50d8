import Foundation
import SADEProcess

/// Runs the peer platforms of `--peers` — the Python scripts in `Benchmarks/peers`,
/// in a virtualenv under `.build/bench-venv` made on first use — for the suites that
/// have one, and sets their figures beside ours.
struct PeerRunner {
    /// Smaller workloads, as for our suites.
    let quick: Bool

    /// The packages the peers need, pinned as the issue names them.
    static let requirements = ["spade==4.1.4", "greenlet", "agentspeak==0.2.2"]
    static let virtualenv = ".build/bench-venv"
    static let scripts = "Benchmarks/peers"

    /// One peer workload: its script, arguments, and which of its JSON outputs
    /// matches which of our figures.
    private struct Workload {
        let platform: String
        let script: String
        let arguments: [String]
        /// (our figure's name, the peer's JSON key, the label shown)
        let matches: [(ours: String, theirs: String, label: String)]
    }

    private func workloads(for suite: String) -> [Workload] {
        switch suite {
        case "spawn":
            [Workload(platform: "SPADE 4.1.4", script: "spade_spawn.py", arguments: [quick ? "5" : "50"], matches: [
                ("agents/s (create+start+stop)", "agents_per_s", "agents/s (create+start+stop)"),
                ("memory per idle started agent", "bytes_per_agent", "memory per idle started agent"),
            ])]
        case "pingpong":
            [1, 10].map { pairs in
                Workload(
                    platform: "SPADE 4.1.4", script: "spade_pingpong.py", arguments: ["\(pairs)", quick ? "100" : "\(20_000 / pairs)"],
                    matches: pairs == 1
                        ? [("messages/s, 1 pair", "messages_per_s", "messages/s, 1 pair"),
                           ("round trip p50, 1 pair", "p50_us", "round trip p50, 1 pair"),
                           ("round trip p99, 1 pair", "p99_us", "round trip p99, 1 pair")]
                        : [(quick ? "messages/s, 100 pairs" : "messages/s, 1000 pairs", "messages_per_s",
                            "messages/s, theirs 10 pairs, ours \(quick ? 100 : 1000)")])
            }
        case "bdi":
            [Workload(platform: "python agentspeak 0.2.2", script: "agentspeak_bdi.py", arguments: [quick ? "1000" : "30000"], matches: [
                ("plan executions/s (goal broken, plan run, restored)", "plans_per_s", "plan executions/s (10 goals × 3 plans by context)"),
            ])]
        default: []
        }
    }

    /// The peers' figures for `suite`: value ours, baseline theirs (measured now),
    /// so the ratio is ours ÷ theirs; none for a suite without a peer.
    func figures(besides ours: [BenchFigure], suite: String) async throws -> [BenchFigure] {
        let workloads = workloads(for: suite)
        guard !workloads.isEmpty else { return [] }
        let python = try await Self.preparedPython()
        var figures: [BenchFigure] = []
        for workload in workloads {
            let results = try await Self.run(python, script: workload.script, workload.arguments)
            for match in workload.matches {
                guard let mine = ours.first(where: { $0.figure == match.ours }), let theirs = results[match.theirs] else { continue }
                figures.append(
                    BenchFigure(
                        suite: suite, figure: "vs \(workload.platform): \(match.label)", value: mine.value, unit: mine.unit,
                        spread: mine.spread, baseline: theirs, baselineName: workload.platform, target: nil))
            }
        }
        return figures
    }

    /// The Python the peers run on: `SADE_BENCH_PYTHON` if set (one that has the
    /// requirements), else the virtualenv's, creating it and installing the peers first
    /// if needed.
    static func preparedPython() async throws -> URL {
        if let chosen = ProcessInfo.processInfo.environment["SADE_BENCH_PYTHON"], !chosen.isEmpty {
            return URL(fileURLWithPath: chosen)
        }
        guard FileManager.default.fileExists(atPath: scripts) else {
            throw BenchError.peerFailed("run --peers from the repository root (no \(scripts) here)")
        }
        let python = URL(fileURLWithPath: virtualenv + "/bin/python")
        let marker = virtualenv + "/.sade-peers-installed"
        if FileManager.default.fileExists(atPath: marker) { return python }
        FileHandle.standardError.write(Data("installing the peers into \(virtualenv) (once)…\n".utf8))
        for (executable, arguments) in [
            ("/usr/bin/env", ["python3", "-m", "venv", virtualenv]),
            (python.path, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check"] + requirements),
        ] {
            let (status, _, _) = await (try ChildProcess(URL(fileURLWithPath: executable), arguments)).finish()
            guard status == 0 else { throw BenchError.peerFailed("\(arguments.joined(separator: " ")) exited with \(status)") }
        }
        _ = FileManager.default.createFile(atPath: marker, contents: Data())
        return python
    }

    /// Runs a peer script and reads the JSON object on its last output line.
    private static func run(_ python: URL, script: String, _ arguments: [String]) async throws -> [String: Double] {
        let peer = try ChildProcess(python, [scripts + "/" + script] + arguments, errors: .discarded)
        let (status, output, _) = await peer.finish()
        guard status == 0, let line = output.split(separator: "\n").last,
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        else { throw BenchError.peerFailed("\(script) \(arguments.joined(separator: " ")) exited with \(status): \(output.suffix(300))") }
        return object.compactMapValues { ($0 as? NSNumber)?.doubleValue }
    }
}
