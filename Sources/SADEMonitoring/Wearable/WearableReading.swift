import Foundation
import SADEHealth

/// What a watch or an ESP32 reports in one `POST /Api/DataItem`: the thesis's data
/// item fields a device fills in. A value the device did not measure is 0 (or `nil`
/// for text), as in the thesis's database.
public struct WearableReading: Hashable, Sendable, Codable {
    /// Heart rate in beats per minute; 0 when not measured.
    public var heartBpm: Double
    /// `"<latitude> <longitude>"` in decimal degrees, as the watch sends it.
    public var gpsCoordinates: String?
    /// The pedometer's count since the device's session started.
    public var steps: Int
    /// The pedometer's distance since the session started, in metres.
    public var distance: Double
    /// The temperature sensor's reading in °C; 0 when not measured.
    public var temperature: Double
    /// The device's model or name, e.g. `Apple Watch Series 3`.
    public var device: String?

    /// Creates a reading; what is not given was not measured.
    public init(
        heartBpm: Double = 0, gpsCoordinates: String? = nil, steps: Int = 0, distance: Double = 0, temperature: Double = 0,
        device: String? = nil
    ) {
        self.heartBpm = heartBpm
        self.gpsCoordinates = gpsCoordinates
        self.steps = steps
        self.distance = distance
        self.temperature = temperature
        self.device = device
    }

    /// Throws unless every value is plausible.
    ///
    /// - Throws: ``MonitoringError/invalid(field:reason:)`` naming the field (the
    ///   thesis's JSON name, e.g. `heartBpm`).
    public func validate() throws(MonitoringError) {
        try Self.check(heartBpm, in: QuantityType.heartRate.possibleValues, field: "heartBpm")
        try Self.check(Double(steps), in: QuantityType.stepCount.possibleValues, field: "steps")
        try Self.check(distance, in: 0...10_000_000, field: "distance")
        try Self.check(temperature, in: -60...100, field: "temperature")
        if let gpsCoordinates, !gpsCoordinates.isEmpty, Self.coordinates(in: gpsCoordinates) == nil {
            throw .invalid(field: "gpsCoordinates", reason: "should be \"<latitude> <longitude>\" in degrees, not \(gpsCoordinates.debugDescription)")
        }
        if let device {
            guard device.count <= 200 else { throw .invalid(field: "device", reason: "must be at most 200 characters") }
            do { try HealthText.validateFreeText(device, field: "device") } catch { throw MonitoringError(error) }
        }
    }

    /// The latitude and longitude of a `"<latitude> <longitude>"` text, or `nil` when
    /// it is not two numbers within ±90 and ±180.
    public static func coordinates(in text: String) -> (latitude: Double, longitude: Double)? {
        let words = text.split(whereSeparator: \.isWhitespace)
        guard words.count == 2, let latitude = Double(words[0]), let longitude = Double(words[1]),
            (-90...90).contains(latitude), (-180...180).contains(longitude)
        else { return nil }
        return (latitude, longitude)
    }

    private static func plain(_ value: Double) -> String {
        value.isFinite && value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }

    private static func check(_ value: Double, in range: ClosedRange<Double>, field: String) throws(MonitoringError) {
        guard value.isFinite, range.contains(value) else {
            throw .invalid(field: field, reason: "must be between \(plain(range.lowerBound)) and \(plain(range.upperBound)), not \(plain(value))")
        }
    }
}
