import Foundation

/// A sensor that seems broken: told to the carers as a device fault, not taken for the
/// resident's activity or inactivity.
public struct DeviceFault: Hashable, Sendable, Codable {
    /// What is wrong.
    public enum Kind: String, Hashable, Sendable, Codable {
        /// On for long while the resident was active in other rooms: stuck, or something left on it.
        case stuck
        /// Silent for a day though it reports every day and the rest of the flat was active.
        case silent
    }

    /// The device.
    public var device: DeviceID
    /// What is wrong.
    public var kind: Kind
    /// Since when: when it turned on (stuck), or its last reading (silent).
    public var since: Date
    /// What the carers read.
    public var text: String

    /// The message key: one message a fault, whatever how often it is found.
    public var key: String { "device:\(device):\(kind.rawValue):\(Int64(since.timeIntervalSince1970 * 1000))" }
}

/// Finds the flat's activity sensors that seem broken, from their readings.
public enum DeviceFaults {
    /// How long a motion sensor or a seat or bed may read on while the resident is active elsewhere.
    public static let stuckAfter: TimeInterval = 3600
    /// How many activations in other rooms, while it reads on, make it stuck rather than the resident there.
    static let elsewhere = 3
    /// How long a sensor that reports daily may be silent while the flat is active.
    public static let silentAfter: TimeInterval = 24 * 3600
    /// How many activations of other sensors make the flat active, over ``silentAfter``.
    static let active = 20
    /// How many of the 7 days before the silence it must have reported on.
    static let usualDays = 6
    /// How far back ``find(in:flat:at:)`` wants the readings.
    public static let lookBack: TimeInterval = 8 * 86400

    /// The faults at `now`, from `events` (the flat's activity readings over the last
    /// ``lookBack``, oldest first).
    public static func find(in events: [StateEvent], flat: Flat, at now: Date) -> [DeviceFault] {
        let devices = Dictionary(flat.devices.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let rooms = Dictionary(flat.rooms.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        func place(_ device: Device) -> String { "\(device.name) (\(rooms[device.room]?.lowercased() ?? "no room"))" }
        let byDevice = Dictionary(grouping: events, by: \.device)
        let activations = events.filter(\.isOn)
        var faults: [DeviceFault] = []
        for (id, readings) in byDevice.sorted(by: { $0.key < $1.key }) {
            guard let device = devices[id], let last = readings.last else { continue }
            // Stuck: reading on since `last`, while the resident was active in other rooms.
            if last.isOn, device.kind == .motion || device.kind == .occupancy, now.timeIntervalSince(last.time) >= stuckAfter {
                let others = activations.filter { $0.time > last.time && devices[$0.device].map { $0.room != device.room } ?? false }
                if others.count >= elsewhere {
                    faults.append(DeviceFault(
                        device: id, kind: .stuck, since: last.time,
                        text: "\(place(device)) has read on since \(InactivityCheck.stamp(last.time, flat)) while the resident was active in other rooms: "
                            + "it may be stuck, or something is left on it. Its readings are not taken as the resident's."))
                }
            }
            // Silent: none for a day while the rest of the flat was active, though it reports every day.
            guard let lastOn = readings.last(where: \.isOn), now.timeIntervalSince(lastOn.time) >= silentAfter else { continue }
            let quietStart = now.addingTimeInterval(-silentAfter)
            let usual = (1...7).filter { back in
                let end = quietStart.addingTimeInterval(-Double(back - 1) * 86400), start = end.addingTimeInterval(-86400)
                return readings.contains { $0.isOn && $0.time >= start && $0.time < end }
            }.count
            let flatActive = activations.filter { $0.time >= quietStart && $0.device != id }.count
            if usual >= usualDays, flatActive >= active {
                faults.append(DeviceFault(
                    device: id, kind: .silent, since: lastOn.time,
                    text: "\(place(device)) has not reported since \(InactivityCheck.stamp(lastOn.time, flat)), though it does every day "
                        + "and the rest of the flat was active: check its battery and its link."))
            }
        }
        return faults
    }
}
