import ArgumentParser
import Foundation
import SADEHome

/// Where a flat's simulated gateway posts, and the account that sets it up.
struct HomeServerOptions: ParsableArguments {
    @Option(help: "The server's base URL.")
    var server = "http://127.0.0.1:8080"

    @Option(help: "The account that reads the flat and issues the gateway's token.")
    var username = "admin"

    @Option(help: "Its password.")
    var password = "sade-demo"
}

/// A flat's gateway on a running server: the flat as the server describes it, and a
/// device token of its resident (what a real gateway is given).
struct HomeGateway {
    let http: SimulatorHTTP
    let flat: Flat
    let token: String

    /// Logs in, reads flat `id` and issues its gateway a token labelled `label`.
    static func connect(_ options: HomeServerOptions, flat id: Int64, label: String) async throws -> HomeGateway {
        let base = options.server.hasSuffix("/") ? String(options.server.dropLast()) : options.server
        let http = SimulatorHTTP(server: base, client: .shared)
        let login = try await MonitorEmulator.login(http, username: options.username, password: options.password)
        let answer = try await http.send(.GET, "/api/v1/homes/\(id)", token: login)
        guard answer.isSuccess, let object = answer.json as? [String: Any] else {
            throw SimulationError("cannot read flat \(id): \(answer.status) \(answer.errorMessage)")
        }
        let flat = try FlatJSON.flat(object)
        guard let resident = flat.resident else { throw SimulationError("flat \(id) has no resident: a gateway's token is a resident's") }
        let issued = try await http.send(.POST, "/api/v1/patients/\(resident)/devices", token: login, json: ["label": label])
        guard issued.isSuccess, let secret = (issued.json as? [String: Any])?["secret"] as? String else {
            throw SimulationError("cannot issue the gateway's token: \(issued.status) \(issued.errorMessage)")
        }
        return HomeGateway(http: http, flat: flat, token: secret)
    }

    /// Posts `events` (at most 1,000 at a time); returns the server's answer.
    func post(_ events: some Collection<StateEvent>) async throws -> SimulatorHTTP.Answer {
        let iso = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        let body = events.map { event -> [String: Any] in
            var item: [String: Any] = ["device_id": event.device, "value": event.value, "time": iso.format(event.time)]
            if let battery = event.battery { item["battery"] = battery }
            return item
        }
        return try await http.send(.POST, "/api/v1/homes/\(flat.id)/events", token: token, json: ["events": body])
    }
}
