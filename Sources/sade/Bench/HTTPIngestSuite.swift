import Foundation
import SADEProcess

/// `http-ingest`: batches of 100 observations POSTed by concurrent clients, each with
/// a device token, to a `sade serve --demo` started as a second process; then the alert
/// latency while the same clients post at a paced 10,000 samples/s.
struct HTTPIngestSuite: BenchSuite {
    let name = "http-ingest"
    let workload = "batches of 100 samples POSTed to sade serve (second process) by 8 concurrent device clients; alert latency under load"

    /// Concurrent clients, one patient and device token each.
    static let clients = 8

    func run(in context: BenchContext) async throws -> [BenchFigure] {
        let data = try TemporaryDirectory()
        defer { data.remove() }
        let (server, url) = try await ChildProcess.demoServer(data: data)
        defer { server.terminate() }
        let http = SimulatorHTTP(server: url, client: .shared)
        let tokens = try await Self.deviceTokens(http, count: Self.clients)
        // Latency first, while the pipeline has no backlog: the throughput runs below
        // accept samples faster than the agents evaluate them.
        let probes = context.size(40, quick: 2)
        let alerts = try await Self.alertLatencies(http, tokens: tokens, probes: probes)
        let batches = context.size(200, quick: 5)
        let rate = try await context.measure { try await Self.post(http, tokens: tokens, batchesPerClient: batches) }
        server.terminate()
        _ = await server.finish()
        // A probe not pushed within 5 s counts as 5 s: misses raise the percentiles, never hide from them.
        let latency = Percentiles(alerts.latencies + Array(repeating: 5_000, count: alerts.missed))
        let load = "at \(Int(Self.pacedRate).formatted()) samples/s"
        return [
            context.figure("samples/s accepted (batches of 100)", rate["rate"], unit: "samples/s", target: "≥ 30,000"),
            context.figure("alert latency p50, posted to pushed, \(load)", BenchStatistic([latency.p50]), unit: "ms"),
            context.figure("alert latency p99, posted to pushed, \(load)", BenchStatistic([latency.p99]), unit: "ms", target: "≤ 50"),
            context.figure("alerts pushed of \(probes) probes", BenchStatistic([Double(probes - alerts.missed) / Double(probes) * 100]), unit: "%"),
            context.figure("load achieved during the probes", BenchStatistic([alerts.load]), unit: "samples/s"),
        ]
    }

    /// Logs in as the demo admin and issues a device token for each of the first `count` patients.
    static func deviceTokens(_ http: SimulatorHTTP, count: Int) async throws -> [(patient: String, token: String)] {
        let admin = try await MonitorEmulator.login(http, username: "admin", password: "sade-demo")
        let list = try await http.send(.GET, "/api/v1/patients", token: admin)
        let ids = ((list.json as? [[String: Any]]) ?? []).compactMap { ($0["patient"] as? [String: Any])?["id"] as? String }
        guard ids.count >= count else { throw BenchError.unexpected("the demo hospital lists \(ids.count) patients") }
        var tokens: [(String, String)] = []
        for id in ids.prefix(count) {
            let issued = try await http.send(.POST, "/api/v1/patients/\(id)/devices", token: admin, json: ["label": "bench"])
            guard let secret = (issued.json as? [String: Any])?["secret"] as? String else {
                throw BenchError.unexpected("no device token for \(id): \(issued.status) \(issued.errorMessage)")
            }
            tokens.append((id, secret))
        }
        return tokens
    }

    /// One run: every client posts `batchesPerClient` batches of 100 normal readings (to
    /// `servers[i % count]` for client i when given: several nodes).
    static func post(
        _ http: SimulatorHTTP, tokens: [(patient: String, token: String)], batchesPerClient: Int, servers: [SimulatorHTTP]? = nil
    ) async throws -> [String: Double] {
        let types: [(String, Double)] = [("heartRate", 72), ("oxygenSaturation", 97), ("respiratoryRate", 16), ("bodyTemperature", 36.8)]
        let seconds = try await BenchClock.seconds {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, (patient, token)) in tokens.enumerated() {
                    let http = servers.map { $0[index % $0.count] } ?? http
                    group.addTask {
                        for _ in 0..<batchesPerClient {
                            let now = Date()
                            let body: [[String: Any]] = (0..<100).map { index in
                                let (type, value) = types[index % types.count]
                                let start = now.addingTimeInterval(Double(index) / 1000 - 1).formatted(.iso8601)
                                return ["type": type, "value": value, "start": start, "device": "bench"]
                            }
                            let answer = try await http.send(.POST, "/api/v1/patients/\(patient)/observations", token: token, json: body)
                            guard answer.isSuccess else { throw BenchError.unexpected("POST answered \(answer.status) \(answer.errorMessage)") }
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        return ["rate": Double(tokens.count * batchesPerClient * 100) / seconds]
    }
}
