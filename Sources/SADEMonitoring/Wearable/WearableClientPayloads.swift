import Foundation

/// The exact `POST /Api/DataItem` bodies of the thesis's two clients, for emulators
/// (`sade simulate --profile watch|esp32`) and tests.
///
/// - The watch (thesis Figure 4.12) serialises `["heartBpm": NSNumber, "gpsCoordinates":
///   "<lat> <lon>", "steps": NSNumber, "distance": NSNumber, "device": model]`: numbers
///   as JSON numbers, `steps` the pedometer's count since the session started,
///   `distance` whole metres, the coordinates as Swift prints two `Double`s.
/// - The ESP32 (Figure 4.30) concatenates a string: `{"heartBpm":"` + `String(BPM)` +
///   `",` …, the BPM an integer *in quotes*. The figure is cut off after `heartBpm`; the
///   rest follows the same pattern with what the board measures and shows (section
///   4.3.5): `"temperature":"36.50"` (Arduino's `String(float)`, two decimals) and
///   `"device":"ESP32"`. The emulated sensor touches the skin, so its temperature is a
///   body's; an air reading (about 23 °C) would be kept but not become a sample.
///
/// Every value is a pure function of a seed and a tick (one tick per report, every
/// 5 s in the thesis), so runs repeat exactly; a scenario may override the heart rate
/// and temperature.
public enum WearableClientPayloads {
    /// Which client's body to build.
    public enum Client: String, Hashable, Sendable, CaseIterable {
        /// The Apple Watch app.
        case watch
        /// The Heltec ESP32 board with a PulseSensor and a DHT11.
        case esp32
    }

    /// The device name the watch sends (`WKInterfaceDevice.current().model` as the
    /// thesis's data table shows it).
    public static let watchModel = "Apple Watch Series 3"
    /// The device name the ESP32 sends.
    public static let esp32Device = "ESP32"
    /// Where the thesis's sample data was recorded (its Figure 4.49).
    public static let origin = (latitude: 46.755555, longitude: 23.569070)

    /// The body `client` sends at `tick` (0, 1, 2, …) of a device seeded with `seed`;
    /// `heartBpm` and `temperature` replace the generated values when given.
    public static func body(for client: Client, seed: UInt64, tick: Int, heartBpm: Double? = nil, temperature: Double? = nil) -> Data {
        let restingRate = 62 + Double(mix(seed, 0) % 20)
        let rate = heartBpm ?? (restingRate + Double(mix(seed, UInt64(tick) &+ 1) % 7) - 3)
        switch client {
        case .watch:
            let steps = tick * 9 + Int(mix(seed, UInt64(tick) &+ 1_000_000) % 9)
            let phase = Double(mix(seed, 1) % 628) / 100
            let angle = phase + Double(tick) / 40
            let latitude = origin.latitude + 0.0004 * sin(angle) + Double(mix(seed, 2) % 1000) / 1e6
            let longitude = origin.longitude + 0.0006 * cos(angle) + Double(mix(seed, 3) % 1000) / 1e6
            return watch(heartBpm: rate.rounded(), latitude: latitude, longitude: longitude, steps: steps, distance: Double(steps) * 0.74)
        case .esp32:
            let skin = 36.3 + Double(mix(seed, 4) % 40) / 100 + Double(mix(seed, UInt64(tick) &+ 2_000_000) % 11) / 100 - 0.05
            return esp32(bpm: Int(rate.rounded()), temperature: temperature ?? skin)
        }
    }

    /// The watch's body for these values, keys in the order of its source.
    public static func watch(heartBpm: Double, latitude: Double, longitude: Double, steps: Int, distance: Double, device: String = watchModel) -> Data {
        let rate = heartBpm == heartBpm.rounded() && abs(heartBpm) < 1e15 ? String(Int64(heartBpm)) : String(heartBpm)
        let gps = String(latitude) + " " + String(longitude)
        let text = #"{"heartBpm":\#(rate),"gpsCoordinates":"\#(gps)","steps":\#(steps),"distance":\#(Int(distance)),"device":"\#(device)"}"#
        return Data(text.utf8)
    }

    /// The ESP32's body for these values: every value a quoted string.
    public static func esp32(bpm: Int, temperature: Double, device: String = esp32Device) -> Data {
        let text = #"{"heartBpm":""# + String(bpm) + #"","temperature":""# + String(format: "%.2f", temperature) + #"","device":""# + device + #""}"#
        return Data(text.utf8)
    }

    /// SplitMix64 of `seed` and `index`: a well-spread, repeatable number.
    private static func mix(_ seed: UInt64, _ index: UInt64) -> UInt64 {
        var z = seed &+ (index &+ 1) &* 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
