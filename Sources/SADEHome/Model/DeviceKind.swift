/// What a device senses or does: one of the sensor and actuator kinds of the AAL
/// thesis's Table 4.1 and §4.2.4, or a kind an application adds.
///
/// A kind carries everything the home needs to treat its readings: whether it detects
/// (a yes/no event), meters (a measured value) or acts; its unit; the Home Assistant
/// domain and device class its state is shown under; for meters, whether the energy
/// flows in (consumed) or out (generated); and whether its events are caused by the
/// resident (what the inactivity rules and the activity profile count).
///
/// ```swift
/// extension DeviceKind {
///     static let bedOccupancy = DeviceKind(rawValue: "bedOccupancy", category: .detection, unit: "",
///                                          domain: "binary_sensor", deviceClass: "occupancy", isResidentActivity: true)
/// }
/// ```
public struct DeviceKind: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The kind's name as stored and sent, e.g. `motion` or `powerGeneration`.
    public var rawValue: String
    /// Detection, metering or actuator.
    public var category: DeviceCategory
    /// The unit of its values: empty for yes/no detections, `W`, `J`, `A`, `V`, `cd`, `°C`, `%`.
    public var unit: String
    /// The Home Assistant domain its state is shown under (`binary_sensor`, `sensor`,
    /// `switch`, `light`, `cover`).
    public var domain: String
    /// Home Assistant's device class (`motion`, `smoke`, `power`, …), if any.
    public var deviceClass: String?
    /// For meters: energy that flows out of the flat (a PV generator), not into it.
    public var isGeneration: Bool
    /// Whether an event of this kind means the resident did something (motion, a door,
    /// an appliance used, a switch pressed), as opposed to a measurement.
    public var isResidentActivity: Bool

    /// A kind; applications make their own with this.
    public init(
        rawValue: String, category: DeviceCategory, unit: String, domain: String, deviceClass: String? = nil,
        isGeneration: Bool = false, isResidentActivity: Bool = false
    ) {
        self.rawValue = rawValue
        self.category = category
        self.unit = unit
        self.domain = domain
        self.deviceClass = deviceClass
        self.isGeneration = isGeneration
        self.isResidentActivity = isResidentActivity
    }

    public var description: String { rawValue }

    /// Whether its devices act (switch, dimmer, shades) rather than sense.
    public var isActuator: Bool { category == .actuator }
}

/// The three groups of the thesis's devices.
public enum DeviceCategory: String, Hashable, Sendable, Codable, CaseIterable {
    /// Fires on an event: yes or no (Table 4.1's detection sensors).
    case detection
    /// Reports measured values (Table 4.1's metering sensors).
    case metering
    /// Performs an action when told to (§4.2.4).
    case actuator
}

extension DeviceKind {
    private static func detection(_ name: String, _ deviceClass: String?, activity: Bool) -> DeviceKind {
        DeviceKind(rawValue: name, category: .detection, unit: "", domain: "binary_sensor", deviceClass: deviceClass, isResidentActivity: activity)
    }

    private static func meter(_ name: String, _ unit: String, _ deviceClass: String, generation: Bool = false) -> DeviceKind {
        DeviceKind(rawValue: name, category: .metering, unit: unit, domain: "sensor", deviceClass: deviceClass, isGeneration: generation)
    }

    /// Impulse on contact: a door, a drawer, a button.
    public static let contact = detection("contact", "door", activity: true)
    /// A wall switch pressed.
    public static let switchSensor = detection("switch", nil, activity: true)
    /// A pill dispenser opened.
    public static let dosage = detection("dosage", nil, activity: true)
    /// A waterproof bed mat that detects wetting.
    public static let enuresis = detection("enuresis", "moisture", activity: false)
    /// A fall detector.
    public static let fall = detection("fall", "safety", activity: false)
    /// Gas concentration above the limit.
    public static let gas = detection("gas", "gas", activity: false)
    /// A smoke detector.
    public static let smoke = detection("smoke", "smoke", activity: false)
    /// A passive infrared motion sensor.
    public static let motion = detection("motion", "motion", activity: true)
    /// The resident left the property.
    public static let propertyExit = detection("propertyExit", "presence", activity: true)
    /// A window handle turned.
    public static let windowHandle = detection("windowHandle", "window", activity: true)
    /// An appliance used (kettle, fridge, toilet flush).
    public static let usage = detection("usage", "running", activity: true)
    /// A pressure mat under a bed or a seat: on while someone lies or sits on it (not of the
    /// thesis; the real homes of the Ordóñez data set have them).
    public static let occupancy = detection("occupancy", "occupancy", activity: true)
    /// Water on the floor.
    public static let water = detection("water", "moisture", activity: false)

    /// Current drawn, in ampere.
    public static let current = meter("current", "A", "current")
    /// Current generated, in ampere.
    public static let currentGeneration = meter("currentGeneration", "A", "current", generation: true)
    /// An energy counter of what the flat consumed, in joule.
    public static let energy = meter("energy", "J", "energy")
    /// An energy counter of what the flat generated, in joule.
    public static let energyGeneration = meter("energyGeneration", "J", "energy", generation: true)
    /// Power drawn, in watt.
    public static let power = meter("power", "W", "power")
    /// Power generated, in watt.
    public static let powerGeneration = meter("powerGeneration", "W", "power", generation: true)
    /// Voltage of the supply, in volt.
    public static let voltage = meter("voltage", "V", "voltage")
    /// Voltage of a generator, in volt.
    public static let voltageGeneration = meter("voltageGeneration", "V", "voltage", generation: true)
    /// Brightness, in candela.
    public static let brightness = meter("brightness", "cd", "illuminance")
    /// Temperature, in degrees Celsius.
    public static let temperature = meter("temperature", "°C", "temperature")

    /// A switch that turns an appliance on (1) or off (0).
    public static let switchActuator = DeviceKind(rawValue: "switchActuator", category: .actuator, unit: "", domain: "switch", deviceClass: "outlet")
    /// A dimmer, 0–100 % brightness.
    public static let dimmer = DeviceKind(rawValue: "dimmer", category: .actuator, unit: "%", domain: "light")
    /// Shades, 0 (closed) – 100 % (open).
    public static let shades = DeviceKind(rawValue: "shades", category: .actuator, unit: "%", domain: "cover", deviceClass: "shade")

    /// Every kind of the thesis, in Table 4.1's order, then the actuators.
    public static let thesisKinds: [DeviceKind] = [
        .contact, .switchSensor, .dosage, .enuresis, .fall, .gas, .smoke, .motion, .propertyExit, .windowHandle, .usage, .water,
        .current, .currentGeneration, .energy, .energyGeneration, .power, .powerGeneration, .voltage, .voltageGeneration,
        .brightness, .temperature, .switchActuator, .dimmer, .shades,
    ]

    /// Every kind SADE knows by name: the thesis's and ``occupancy``.
    public static let known: [DeviceKind] = thesisKinds + [.occupancy]

    /// The known kind named `rawValue` (see ``known``), if there is one.
    public static func thesisKind(named rawValue: String) -> DeviceKind? {
        known.first { $0.rawValue == rawValue }
    }
}
