import Foundation
import SADEProcess
import SADEHealth
import SADEPostgres

/// `pg-http`: two `sade serve --database` processes on one PostgreSQL database (the
/// first seeds the demo), 8 device clients posting to both. The alert latency of a
/// probe posted to the node that does not evaluate — told with `NOTIFY`, evaluated by
/// the other, its alert relayed back and pushed to the admin's live stream on the node
/// the probe went to — while the clients post a paced 10,000 samples/s spread over both
/// nodes; then the samples/s both nodes accept together. On demand: it needs
/// `--database postgres://…`, where it makes a database of its own and drops it.
struct PostgresHTTPSuite: BenchSuite {
    let name = "pg-http"
    let workload = "two sade serve nodes (processes) on one PostgreSQL database, 8 device clients posting to both: alert latency under a paced 10,000 samples/s; samples/s accepted"
    var isOnDemand: Bool { true }

    func run(in context: BenchContext) async throws -> [BenchFigure] {
        try await BenchDatabase.with(context, suite: name) { location in
            guard let server = context.database else { throw BenchError.unexpected("pg-http needs --database") }
            let url = try BenchDatabase.url(server, database: location.database)
            let folders = try [TemporaryDirectory(), TemporaryDirectory()]
            defer { for folder in folders { folder.remove() } }
            let first = try await Self.node("bench-a", data: folders[0], database: url, demo: true)
            defer { first.process.terminate() }
            let second = try await Self.node("bench-b", data: folders[1], database: url, demo: false)
            defer { second.process.terminate() }
            let nodes = [first.url, second.url].map { SimulatorHTTP(server: $0, client: .shared) }
            try await Self.shareOut(nodes)
            let other = nodes[1]
            let tokens = try await HTTPIngestSuite.deviceTokens(nodes[0], count: HTTPIngestSuite.clients)
            let probes = context.size(40, quick: 2)
            let alerts = try await HTTPIngestSuite.alertLatencies(other, tokens: tokens, probes: probes, loadOn: nodes)
            // An alerting console (alerts only) on node B: samples and scores stay on the node evaluating them.
            let console = try await HTTPIngestSuite.alertLatencies(other, tokens: tokens, probes: probes, loadOn: nodes, watching: "alert")
            let batches = context.size(100, quick: 5)
            let rate = try await context.measure { try await HTTPIngestSuite.post(other, tokens: tokens, batchesPerClient: batches, servers: nodes) }
            for node in [second.process, first.process] {
                node.terminate()
                _ = await node.finish()
            }
            // A probe not pushed within 5 s counts as 5 s: misses raise the percentiles, never hide from them.
            let latency = Percentiles(alerts.latencies + Array(repeating: 5_000, count: alerts.missed))
            let consoleLatency = Percentiles(console.latencies + Array(repeating: 5_000, count: console.missed))
            let load = "at \(Int(HTTPIngestSuite.pacedRate).formatted()) samples/s over both"
            return [
                context.figure(
                    "alert latency p50, posted to node B to pushed there, patients evaluated on A or B (a dashboard: every event), \(load)",
                    BenchStatistic([latency.p50]), unit: "ms"),
                context.figure(
                    "alert latency p99, posted to node B to pushed there, patients evaluated on A or B (a dashboard: every event), \(load)",
                    BenchStatistic([latency.p99]), unit: "ms", target: "≤ 100"),
                context.figure(
                    "alerts pushed of \(probes) probes (dashboard)", BenchStatistic([Double(probes - alerts.missed) / Double(probes) * 100]), unit: "%"),
                context.figure(
                    "alert latency p50, the same to an alerting console (alerts only), \(load)", BenchStatistic([consoleLatency.p50]), unit: "ms"),
                context.figure(
                    "alert latency p99, the same to an alerting console (alerts only), \(load)", BenchStatistic([consoleLatency.p99]), unit: "ms",
                    target: "≤ 100"),
                context.figure(
                    "alerts pushed of \(probes) probes (console)", BenchStatistic([Double(probes - console.missed) / Double(probes) * 100]),
                    unit: "%"),
                context.figure("load achieved during the probes", BenchStatistic([min(alerts.load, console.load)]), unit: "samples/s"),
                context.figure("samples/s accepted by two nodes (batches of 100)", rate["rate"], unit: "samples/s"),
            ]
        }
    }

    /// A `sade serve` node on `database`, listening on a free port; its base URL.
    private static func node(_ name: String, data: TemporaryDirectory, database: String, demo: Bool) async throws -> (process: ChildProcess, url: String) {
        let process = try ChildProcess(
            ChildProcess.sade,
            ["serve"] + (demo ? ["--demo"] : []) + [
                "--port", "0", "--data", data.path, "--database", database, "--node", name, "--rate-limit", "1000000",
            ],
            errors: .discarded)
        guard let line = await process.line(containing: "listening on http://"), let url = line.split(separator: " ").last else {
            process.terminate()
            throw BenchError.peerFailed("sade serve \(name) did not start listening")
        }
        return (process, String(url))
    }

    /// Returns once the nodes evaluate their even shares of the patients (`GET /health`),
    /// within two thirds of a lease period of the last start; throws after 30 s.
    private static func shareOut(_ nodes: [SimulatorHTTP]) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            var counts: [Int] = []
            for node in nodes {
                let answer = try await node.send(.GET, "/health", token: nil)
                counts.append(((answer.json as? [String: Any])?["shards"] as? [Any])?.count ?? 0)
            }
            if counts.allSatisfy({ $0 == PatientShards.count / nodes.count }) { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw BenchError.unexpected("the nodes did not share the patients out within 30 s")
    }
}
