import Foundation
import Synchronization
import SADEMonitoring

/// A watch or an ESP32 of the wearable thesis: registers its user, logs in and posts
/// exactly that client's data items to `/Api/DataItem`.
struct WearableEmulator: Sendable {
    let client: WearableClientPayloads.Client
    let token: String
    let seed: UInt64
    let deteriorates: Bool
    let start: Date
    let duration: TimeInterval
    let tick = Counter()

    /// Registers `count` users named after the run and logs each in.
    static func prepare(
        _ http: SimulatorHTTP, kind: SimulateCommand.Profile, count: Int, scenario: SimulateCommand.Scenario, seed: UInt64, start: Date,
        duration: TimeInterval, run: String
    ) async throws -> [WearableEmulator] {
        let client: WearableClientPayloads.Client = kind == .watch ? .watch : .esp32
        var emulators: [WearableEmulator] = []
        for index in 0..<count {
            let username = "sim-\(client.rawValue)-\(run)-\(index + 1)"
            let password = "sim-password-\(run)"
            let credentials = ["username": username, "password": password]
            let registered = try await http.send(
                .POST, "/Api/User/register", json: credentials.merging(["name": "Simulated \(client.rawValue) \(index + 1)"]) { $1 })
            guard registered.isSuccess else {
                throw SimulationError("cannot register \(username): \(registered.status) \(registered.errorMessage)")
            }
            let login = try await http.send(.POST, "/Api/User/login", json: credentials)
            guard login.isSuccess, let token = (login.json as? [String: Any])?["token"] as? String else {
                throw SimulationError("cannot log in as \(username): \(login.status) \(login.errorMessage)")
            }
            let deteriorates = scenario.profile(forDevice: index) == .deteriorating
            emulators.append(WearableEmulator(
                client: client, token: token, seed: seed &+ UInt64(index), deteriorates: deteriorates, start: start, duration: duration))
        }
        return emulators
    }

    /// Posts the next data item; a deteriorating wearer's heart rate climbs to 150 bpm
    /// and their temperature to 39.8 °C over the run's middle.
    func post(at date: Date, via http: SimulatorHTTP) async throws -> SimulatorHTTP.Answer? {
        let progress = min(1, max(0, (date.timeIntervalSince(start) / duration - 0.1) / 0.5))
        let body = WearableClientPayloads.body(
            for: client, seed: seed, tick: tick.next(), heartBpm: deteriorates ? 75 + 75 * progress : nil,
            temperature: deteriorates ? 36.8 + 3 * progress : nil)
        return try await http.send(.POST, "/Api/DataItem", token: token, body: body)
    }
}

/// A thread-safe tick counter.
final class Counter: Sendable {
    private let value = Mutex(0)
    func next() -> Int {
        value.withLock { count in
            defer { count += 1 }
            return count
        }
    }
}
