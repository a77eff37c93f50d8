/// Home Assistant's services for the thesis's actuators, as the value the device is asked for.
enum ServiceCall {
    /// The value `service` of `domain` asks for: switch 0/1, light (dimmer) and cover
    /// (shades) 0–100; `current` is the device's value now, for `toggle`.
    static func value(domain: String, service: String, data: [String: Any], current: Double) throws -> Double {
        switch (domain, service) {
        case ("switch", "turn_on"): return 1
        case ("switch", "turn_off"): return 0
        case ("switch", "toggle"): return current >= 0.5 ? 0 : 1
        case ("light", "turn_on"):
            if let percent = HomeEventInput.number(data["brightness_pct"]) { return try bounded(percent, "brightness_pct") }
            if let level = HomeEventInput.number(data["brightness"]) { return try bounded(level, "brightness", upTo: 255) / 255 * 100 }
            return 100
        case ("light", "turn_off"): return 0
        case ("light", "toggle"): return current > 0 ? 0 : 100
        case ("cover", "open_cover"): return 100
        case ("cover", "close_cover"): return 0
        case ("cover", "set_cover_position"):
            guard let position = HomeEventInput.number(data["position"]) else { throw HomeBusError.invalidFormat("service_data.position is missing") }
            return try bounded(position, "position")
        default:
            throw HomeBusError(code: "not_found", message: "no service \(domain).\(service)")
        }
    }

    private static func bounded(_ value: Double, _ field: String, upTo limit: Double = 100) throws -> Double {
        guard value.isFinite, (0...limit).contains(value) else {
            throw HomeBusError.invalidFormat("service_data.\(field) must be 0–\(Int(limit))")
        }
        return value.rounded()
    }
}
