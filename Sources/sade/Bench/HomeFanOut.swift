import Foundation
import SADEProcess
import HummingbirdWSClient
import Logging
import Synchronization

/// The home bus's fan-out: `clients` WebSocket clients subscribed to `state_changed` on
/// a `sade serve --demo` (a second process) while a gateway POSTs `rate` events a second
/// (batches of 10) for `seconds`; each event carries its send time as its value, so a
/// client's latency is its receive time minus that.
struct HomeFanOut {
    let clients: Int
    let rate: Int
    let seconds: Int

    struct Result {
        let clients: Int
        let p50: Double
        let p99: Double
        let delivered: Int
        let expected: Int
    }

    func run() async throws -> Result {
        let data = try TemporaryDirectory()
        defer { data.remove() }
        let (server, url) = try await ChildProcess.demoServer(data: data)
        defer { server.terminate() }
        let http = SimulatorHTTP(server: url, client: .shared)
        let admin = try await MonitorEmulator.login(http, username: "admin", password: "sade-demo")
        let flats = (try await http.send(.GET, "/api/v1/homes", token: admin).json as? [[String: Any]]) ?? []
        guard let flat = flats.first, let flatID = flat["id"] as? Int, let resident = flat["resident"] as? String else {
            throw BenchError.unexpected("the demo has no flat")
        }
        let plan = (try await http.send(.GET, "/api/v1/homes/\(flatID)", token: admin).json as? [String: Any]) ?? [:]
        let devices = (plan["devices"] as? [[String: Any]]) ?? []
        guard let meter = devices.first(where: { $0["kind"] as? String == "voltage" }), let meterID = meter["id"] as? Int,
            let entity = meter["entity_id"] as? String
        else { throw BenchError.unexpected("the demo flat has no voltage meter") }
        let issued = try await http.send(.POST, "/api/v1/patients/\(resident)/devices", token: admin, json: ["label": "bench gateway"])
        guard let gateway = (issued.json as? [String: Any])?["secret"] as? String else { throw BenchError.unexpected("no gateway token") }

        let origin = Date().timeIntervalSince1970
        let latencies = LatencyLog()
        let ready = Countdown(clients)
        let socket = url.replacingOccurrences(of: "http://", with: "ws://") + "/api/v1/home/websocket?flat_id=\(flatID)"
        let total = rate * seconds
        let listeners = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<clients {
                    group.addTask {
                        try await WebSocketClient.connect(url: socket, configuration: .init(maxFrameSize: 1 << 20), logger: Logger(label: "bench")) {
                            inbound, outbound, _ in
                            try await outbound.write(.text(#"{"type":"auth","access_token":"\#(admin)"}"#))
                            try await outbound.write(.text(#"{"id":1,"type":"subscribe_events","event_type":"state_changed"}"#))
                            var subscribed = false, seen = 0
                            for try await message in inbound.messages(maxSize: 1 << 20) {
                                guard case .text(let text) = message else { continue }
                                if !subscribed, text.contains(#""type":"result""#) { subscribed = true; ready.tick() }
                                // The new state's value without parsing the whole message: the first "state" after "new_state".
                                guard text.contains(entity), let newState = text.range(of: #""new_state":"#),
                                    let state = text.range(of: #""state":""#, range: newState.upperBound..<text.endIndex),
                                    let sent = Double(text[state.upperBound...].prefix { $0 != "\"" })
                                else { continue }
                                let latency = (Date().timeIntervalSince1970 - origin) * 1000 - sent / 1000
                                latencies.append(latency)
                                seen += 1
                                if seen == total { try await outbound.close(.normalClosure, reason: nil); return }
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        try await ready.wait()
        // Paced: a batch of 10 every 10 ms, each event's value its send time in µs since `origin`.
        let batches = total / 10
        let clock = ContinuousClock()
        let start = clock.now
        for batch in 0..<batches {
            try await clock.sleep(until: start.advanced(by: .milliseconds(batch * 10)))
            let now = Date()
            let micros = ((now.timeIntervalSince1970 - origin) * 1_000_000).rounded()
            let stamp = Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(now)
            let events = (0..<10).map { index in ["device_id": meterID, "value": micros + Double(index), "time": stamp] as [String: Any] }
            let answer = try await http.send(.POST, "/api/v1/homes/\(flatID)/events", token: gateway, json: ["events": events])
            guard answer.isSuccess else { throw BenchError.unexpected("POST events answered \(answer.status) \(answer.errorMessage)") }
        }
        let deadline = Task {
            try await Task.sleep(for: .seconds(5))
            listeners.cancel()
        }
        _ = try? await listeners.value
        deadline.cancel()
        let measured = latencies.all
        return Result(
            clients: clients, p50: HomeSuite.percentile(measured, 0.5), p99: HomeSuite.percentile(measured, 0.99), delivered: measured.count,
            expected: total * clients)
    }
}

/// Latencies collected by many clients at once.
final class LatencyLog: Sendable {
    private let values = Mutex<[Double]>([])

    func append(_ value: Double) { values.withLock { $0.append(value) } }

    var all: [Double] { values.withLock { $0 } }
}
