import Foundation
import SADEHealth

extension HTTPIngestSuite {
    /// The paced background load while alert latency is measured.
    static let pacedRate = 10_000.0

    /// Alert latency under load: the clients post normal readings paced at
    /// ``pacedRate`` samples/s while, one after the other, a deteriorating set of vital
    /// signs is posted for a patient without an open episode (new patients, admitted to
    /// the demo's COVID ward; one more per shard of patients before the load starts,
    /// unmeasured, waits until every node has evaluated what the demo seeded); the time
    /// from sending that POST to its `alert` event on
    /// the admin's live stream is one latency (an upper bound of "accepted to pushed":
    /// it includes the POST's own trip). The stream carries every kind of event (a
    /// dashboard) or only `watching` (`alert`: an alerting console). Returns the
    /// latencies (ms), the probes that got no alert within 5 s, and the load achieved (samples/s).
    static func alertLatencies(
        _ http: SimulatorHTTP, tokens: [(patient: String, token: String)], probes: Int, loadOn servers: [SimulatorHTTP]? = nil,
        watching: String? = nil
    ) async throws -> (latencies: [Double], missed: Int, load: Double) {
        let admin = try await MonitorEmulator.login(http, username: "admin", password: "sade-demo")
        let run = UUID().uuidString.prefix(8).lowercased()
        // A warm-up patient in each shard (whichever node evaluates it), then the probes.
        var warmUps: [Int: String] = [:]
        var candidate = 0
        while warmUps.count < PatientShards.count {
            let id = "bench-\(run)-warm-up-\(candidate)"
            let shard = PatientShards.shard(of: PatientID(rawValue: id))
            if warmUps[shard] == nil { warmUps[shard] = id }
            candidate += 1
        }
        var patients: [String] = []
        for (index, id) in (warmUps.values.sorted() + (1...probes).map { "bench-\(run)-\($0)" }).enumerated() {
            let created = try await http.send(
                .POST, "/api/v1/patients", token: admin, json: ["id": id, "name": "Bench \(index)", "sector": "covid-ward", "bed": "B\(index)"])
            guard created.isSuccess else { throw BenchError.unexpected("patient \(id) not admitted: \(created.status) \(created.errorMessage)") }
            patients.append(id)
        }
        let arrivals = AlertArrivals()
        try await arrivals.open(server: http.server, token: admin, client: http.client, types: watching)
        // Warm-up, unmeasured: the demo's server starts by evaluating the 24 hours of
        // history it seeded (each node its shards'); the first alerts wait for that,
        // whatever the load.
        for warmUp in patients.prefix(warmUps.count) {
            let seeded = try await http.send(.POST, "/api/v1/patients/\(warmUp)/observations", token: admin, json: deteriorated(at: Date()))
            guard seeded.isSuccess else { throw BenchError.unexpected("warm-up readings refused: \(seeded.status) \(seeded.errorMessage)") }
        }
        for warmUp in patients.prefix(warmUps.count) {
            guard await arrivals.arrival(of: warmUp, within: .seconds(60)) != nil else {
                throw BenchError.unexpected("no alert for the warm-up probe \(warmUp) within 60 s")
            }
        }
        patients.removeFirst(warmUps.count)
        let load = Task { try await pace(servers ?? [http], tokens: tokens) }
        var latencies: [Double] = []
        var missed = 0
        for patient in patients {
            let sent = ContinuousClock.now
            let answer = try await http.send(.POST, "/api/v1/patients/\(patient)/observations", token: admin, json: deteriorated(at: Date()))
            guard answer.isSuccess else { throw BenchError.unexpected("deteriorated readings refused: \(answer.status) \(answer.errorMessage)") }
            if let arrival = await arrivals.arrival(of: patient, within: .seconds(5)) {
                latencies.append((arrival - sent).seconds * 1000)
            } else {
                missed += 1
            }
        }
        load.cancel()
        let posted = try await load.value
        let ended = await arrivals.ended
        await arrivals.close()
        if let ended { throw BenchError.unexpected("the live event stream ended during the probes: \(ended)") }
        return (latencies, missed, posted)
    }

    /// Posts batches of 100 normal readings from every client (client i to
    /// `servers[i % count]`), together ``pacedRate`` samples/s, until cancelled; returns
    /// the rate achieved.
    private static func pace(_ servers: [SimulatorHTTP], tokens: [(patient: String, token: String)]) async throws -> Double {
        let interval = Duration.seconds(Double(tokens.count * 100) / pacedRate)
        let start = ContinuousClock.now
        let sent = try await withThrowingTaskGroup(of: Int.self) { group in
            for (index, (patient, token)) in tokens.enumerated() {
                let http = servers[index % servers.count]
                group.addTask {
                    var batches = 0
                    var next = ContinuousClock.now
                    while !Task.isCancelled {
                        let answer: SimulatorHTTP.Answer
                        do {
                            answer = try await http.send(.POST, "/api/v1/patients/\(patient)/observations", token: token, body: normalBatchBody(at: Date()))
                        } catch where Task.isCancelled {
                            break
                        }
                        guard answer.isSuccess else { throw BenchError.unexpected("POST answered \(answer.status) \(answer.errorMessage)") }
                        batches += 1
                        next += interval
                        if next > .now { try? await Task.sleep(until: next, clock: .continuous) }
                    }
                    return batches * 100
                }
            }
            return try await group.reduce(0, +)
        }
        return Double(sent) / (ContinuousClock.now - start).seconds
    }

    /// 100 normal readings just before `now`, as the JSON body of a POST: written
    /// directly, each second's timestamp formatted once — the clients share the cores
    /// with the servers they measure, so they take as little of them as they can
    /// (`JSONSerialization` of 100 dictionaries and 100 date formats per batch took a
    /// few per cent of them at the paced rate).
    static func normalBatchBody(at now: Date) -> Data {
        let types: [(String, String)] = [("heartRate", "72"), ("oxygenSaturation", "97"), ("respiratoryRate", "16"), ("bodyTemperature", "36.8")]
        var stamps: [Int: String] = [:]
        var body = "["
        body.reserveCapacity(100 * 80)
        for index in 0..<100 {
            let (type, value) = types[index % types.count]
            let second = Int((now.timeIntervalSince1970 + Double(index) / 1000 - 1).rounded(.down))
            let stamp = stamps[second] ?? Date(timeIntervalSince1970: Double(second)).formatted(.iso8601)
            stamps[second] = stamp
            if index > 0 { body += "," }
            body += #"{"type":"\#(type)","value":\#(value),"start":"\#(stamp)","device":"bench"}"#
        }
        body += "]"
        return Data(body.utf8)
    }

    /// A full set of vital signs scoring NEWS2 high: one alert.
    static func deteriorated(at now: Date) -> [[String: Any]] {
        let start = now.formatted(.iso8601)
        return [("respiratoryRate", 26.0), ("oxygenSaturation", 90), ("supplementalOxygen", 0), ("bloodPressureSystolic", 95),
                ("heartRate", 125), ("consciousnessLevel", 0), ("bodyTemperature", 39.5)]
            .map { ["type": $0.0, "value": $0.1, "start": start, "device": "bench-probe"] }
    }
}
