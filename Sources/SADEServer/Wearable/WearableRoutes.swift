import Foundation
import Hummingbird
import SADEMonitoring

extension MonitoringServer {
    /// The wearable thesis's REST API, served unchanged so that its watch, ESP32 and web
    /// clients work: `/Api/User/…`, `/Api/DataItem/…`, `/Api/Project/…` and
    /// `GET /Api/General/hour`. Paths match regardless of case (the router is
    /// case-insensitive), so the ESP32's `/api/general/hour` works too. Errors take our
    /// `{"error": …}` shape except where the thesis defines its own (a failed login).
    func addWearableRoutes(to router: Router<MonitoringRequestContext>) {
        let api = router.group("Api")
        addWearableUserRoutes(to: api.group("User"))
        addWearableDataItemRoutes(to: api.group("DataItem"))
        addWearableProjectRoutes(to: api.group("Project"))
        // The thesis answers .NET's `DateTime.Now` as a JSON string; ours is ISO 8601 in UTC.
        api.get("General/hour") { _, _ in
            CurrentTime(date: system.now())
        }
    }

    /// Wakes the monitoring pipeline after `count` samples of a data item were saved, so
    /// that they are evaluated now rather than at the collector's next cycle.
    func wearableSamplesSaved(_ count: Int) { system.samplesAccepted(count) }

    /// The whole-number path parameter `name`, or a 400 naming it.
    func wearableNumber<Number: FixedWidthInteger>(_ name: String, in context: MonitoringRequestContext, as _: Number.Type = Number.self) throws -> Number {
        let raw = try context.pathParameter(name)
        guard let value = Number(raw) else { throw APIError.invalid("\(name): should be a whole number, not \(raw.debugDescription)", code: "invalid-parameter") }
        return value
    }
}

/// The server's time as a JSON string.
struct CurrentTime: ResponseEncodable {
    let date: Date

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(date)
    }
}
