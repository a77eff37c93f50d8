import Foundation

/// A device's report: its new value, its battery charge and when (the thesis's `Message`).
///
/// Detections carry 1 (detected) or 0 (clear); meters their reading in the kind's
/// unit; actuators their state (switch 0/1, dimmer and shades 0–100).
public struct StateEvent: Hashable, Sendable, Codable {
    /// The device that reported.
    public var device: DeviceID
    /// The new value.
    public var value: Double
    /// Battery charge in percent, for battery-powered devices that report it.
    public var battery: Int?
    /// When the device reported it.
    public var time: Date

    /// An event.
    public init(device: DeviceID, value: Double, battery: Int? = nil, time: Date) {
        self.device = device
        self.value = value
        self.battery = battery
        self.time = time
    }

    /// Whether a detection fired (value above one half).
    public var isOn: Bool { value >= 0.5 }
}

/// An event as the store keeps it: with its sequence number and its flat.
public struct RecordedEvent: Hashable, Sendable, Codable {
    /// Increases with every event the store accepts; a later event has a larger one.
    public var sequence: Int64
    /// The flat of the device.
    public var flat: FlatID
    /// The event.
    public var event: StateEvent

    /// A recorded event.
    public init(sequence: Int64, flat: FlatID, event: StateEvent) {
        self.sequence = sequence
        self.flat = flat
        self.event = event
    }
}

/// Where the resident is: the room of the latest motion, and the one before.
public struct Occupancy: Hashable, Sendable, Codable {
    /// The flat.
    public var flat: FlatID
    /// The room the resident is in now.
    public var room: RoomID
    /// The room they were in before, if known.
    public var previousRoom: RoomID?
    /// When they entered `room`.
    public var since: Date

    /// An occupancy.
    public init(flat: FlatID, room: RoomID, previousRoom: RoomID?, since: Date) {
        self.flat = flat
        self.room = room
        self.previousRoom = previousRoom
        self.since = since
    }
}

/// A battery's state, from its charge.
public enum BatteryState: String, Hashable, Sendable, Codable, CaseIterable {
    /// More than ``weakBelow``.
    case ok
    /// At most ``weakBelow`` %: replace it soon.
    case weak
    /// At most ``emptyBelow`` %: the device may already be silent.
    case empty

    /// Charges at or below this are weak.
    public static let weakBelow = 20
    /// Charges at or below this are empty.
    public static let emptyBelow = 5

    /// The state of a battery charged `percent`.
    public init(percent: Int) {
        self = percent <= Self.emptyBelow ? .empty : percent <= Self.weakBelow ? .weak : .ok
    }
}

/// A device's latest report, with what follows from it.
public struct DeviceState: Hashable, Sendable, Codable {
    /// The device.
    public var device: Device
    /// Its latest event, if it has reported at all.
    public var latest: StateEvent?
    /// When its value last changed (the latest event with a different value).
    public var lastChanged: Date?
    /// Its latest known battery charge.
    public var battery: Int?

    /// A state.
    public init(device: Device, latest: StateEvent?, lastChanged: Date?, battery: Int?) {
        self.device = device
        self.latest = latest
        self.lastChanged = lastChanged
        self.battery = battery
    }

    /// The battery's state, if the device reports one.
    public var batteryState: BatteryState? { battery.map(BatteryState.init(percent:)) }
}
