import ArgumentParser
import AsyncHTTPClient
import Foundation
import SADEHome

/// `sade home simulate`: a flat's gateway in simulation, posting the seeded resident
/// routine's events to a running server as they happen (or faster).
struct HomeSimulateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Post a simulated resident's sensor events to a running sade serve, as the flat's gateway.",
        discussion: """
            Logs in (default admin / sade-demo), reads the flat's floor plan, issues a device token for its resident (the \
            gateway's token) and posts the routine's events every --interval seconds through POST /api/v1/homes/{id}/events. \
            --speed N replays the routine N times faster than the clock, from (N − 1) × --duration ago, reaching now at the end (the server takes no events from the future). Exits 1 when nothing was accepted.
            """
    )

    @OptionGroup var connection: HomeServerOptions

    @Option(help: "The flat's id (GET /api/v1/homes lists them).")
    var flat: Int64

    @Option(help: "The routine's seed: the same seed makes the same days.")
    var seed: UInt64 = 7

    @Option(help: "Seconds between two posts, e.g. 5 or 5s.", transform: SimulateCommand.seconds)
    var interval: Double = 5

    @Option(help: "How long to run, e.g. 60 or 60s or 2m.", transform: SimulateCommand.seconds)
    var duration: Double = 60

    @Option(help: "How much faster than the clock the routine runs (1 = real time).")
    var speed: Double = 1

    func validate() throws {
        guard interval > 0, duration > 0 else { throw ValidationError("--interval and --duration must be positive") }
        guard speed >= 1, speed <= 10_000 else { throw ValidationError("--speed must be 1…10000") }
    }

    func run() async throws {
        let gateway = try await HomeGateway.connect(connection, flat: flat, label: "simulated gateway")
        let plan = gateway.flat
        let routine = ResidentRoutine(flat: plan, seed: seed)
        print("simulating \(plan.name) (flat \(flat), \(plan.devices.count) devices) at \(speed)× for \(duration) s against \(connection.server)")
        let start = Date()
        let origin = start.addingTimeInterval(-duration * (speed - 1))
        var simulated = origin, sent = 0, accepted = 0, rejected = 0
        while Date().timeIntervalSince(start) < duration {
            try await Task.sleep(for: .seconds(min(interval, duration - Date().timeIntervalSince(start))))
            let until = min(origin.addingTimeInterval(Date().timeIntervalSince(start) * speed), Date())
            let events = routine.events(from: simulated, to: until)
            simulated = until
            for batch in stride(from: 0, to: events.count, by: 1000) {
                let slice = events[batch..<min(batch + 1000, events.count)]
                let posted = try await gateway.post(slice)
                sent += slice.count
                if posted.isSuccess { accepted += slice.count } else {
                    rejected += slice.count
                    print("rejected \(slice.count): \(posted.status) \(posted.errorMessage)")
                }
            }
        }
        print("sent \(sent), accepted \(accepted), rejected \(rejected)")
        if accepted == 0 && sent > 0 { throw ExitCode(1) }
    }
}

/// A flat read back from the REST API's JSON (`GET /api/v1/homes/{id}`).
enum FlatJSON {
    static func flat(_ object: [String: Any]) throws -> Flat {
        guard let id = (object["id"] as? NSNumber)?.int64Value, let name = object["name"] as? String else {
            throw SimulationError("the flat's JSON has no id or name")
        }
        let devices = (object["devices"] as? [[String: Any]] ?? []).compactMap { device -> Device? in
            guard let deviceID = (device["id"] as? NSNumber)?.int64Value, let room = (device["room_id"] as? NSNumber)?.int64Value,
                let kindName = device["kind"] as? String, let kind = DeviceKind.thesisKind(named: kindName),
                let entity = device["entity_id"] as? String, let dot = entity.firstIndex(of: ".")
            else { return nil }
            return Device(
                id: deviceID, flat: id, room: room, name: device["name"] as? String ?? entity, kind: kind,
                position: PlanPoint(x: (device["x"] as? NSNumber)?.doubleValue ?? 0, y: (device["y"] as? NSNumber)?.doubleValue ?? 0),
                isBatteryPowered: device["battery_powered"] as? Bool ?? false, objectID: String(entity[entity.index(after: dot)...]))
        }
        return Flat(
            id: id, name: name, resident: (object["resident"] as? String).map { .init($0) }, carers: object["carers"] as? [String] ?? [],
            timeZone: object["time_zone"] as? String ?? "UTC", devices: devices)
    }
}
