import Foundation

/// A sensor that seems broken: told to the carers as a device fault, not taken for the
/// resident's activity or inactivity.
public struct DeviceFault: Hashable, Sendable, Codable {
    /// What is wrong.
    public enum Kind: String, Hashable, Sendable, Codable {
        /// On for long while the resident was active in other rooms: stuck, or something left on it.
        case stuck
        /// Silent for a day or more (see ``DeviceFaults``) though it reports every day and the rest of the flat was active.
        case silent
    }

    /// The device.
    public var device: DeviceID
    /// What is wrong.
    public var kind: Kind
    /// Since when: when it turned on (stuck), or its last reading (silent).
    public var since: Date
    /// Whether it began before the readings it was found in (a stuck sensor on for longer
    /// than ``DeviceFaults/lookBack``): its ``since`` is then only the first of them.
    public var isOngoing = false
    /// What the carers read.
    public var text: String

    /// The message key: one message a fault, whatever how often it is found.
    public var key: String { "\(keyPrefix)\(Int64(since.timeIntervalSince1970 * 1000))" }
    /// The key of any message about this device and kind of fault.
    public var keyPrefix: String { "device:\(device):\(kind.rawValue):" }
}

/// Finds the flat's activity sensors that seem broken, from their readings.
public enum DeviceFaults {
    /// How long a motion sensor or a seat or bed may read on while the resident is active elsewhere.
    public static let stuckAfter: TimeInterval = 3600
    /// How many activations in other rooms, while it reads on, make it stuck rather than
    /// the resident there (as many as end a seat's hold: ``ActivityEvent/elsewhere``).
    static let elsewhere = ActivityEvent.elsewhere
    /// The shortest silence of a sensor that reports daily, while the flat is active; and
    /// it must also be twice the longest it went without firing in the week before, up
    /// to ``silentAtMost``.
    public static let silentAfter: TimeInterval = 24 * 3600
    /// See ``silentAfter``.
    public static let silentAtMost: TimeInterval = 72 * 3600
    /// How many activations of other sensors make the flat active, over ``silentAfter``.
    static let active = 20
    /// On how many of the 7 days before its last reading it must have fired.
    static let usualDays = 6
    /// How far back ``find(in:flat:at:)`` wants the readings.
    public static let lookBack: TimeInterval = 10 * 86400  // a week before the last reading, and the longest silence waited for

    /// The faults at `now`, from `events` (the flat's activity readings over the last
    /// ``lookBack``, oldest first).
    ///
    /// A stuck fault whose reading on began before the readings (``isOngoing``) may be one
    /// already told, whose start has since passed out of them.
    ///
    /// *Stuck*: a motion sensor or a seat or bed reading on for ``stuckAfter`` or more
    /// while ``elsewhere`` activations came from other rooms. *Silent*: a sensor that fired
    /// on 6 of the 7 days before its last reading, silent since for ``silentAfter`` and
    /// twice the longest it went without firing in those days (at most ``silentAtMost``), while the rest of the flat
    /// gave ``active`` activations in the last ``silentAfter``. One that still reads on is
    /// not silent: a seat pressed for a day is stuck, or the resident there.
    public static func find(in events: [StateEvent], flat: Flat, at now: Date) -> [DeviceFault] {
        let devices = Dictionary(flat.devices.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let rooms = Dictionary(flat.rooms.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        func place(_ device: Device) -> String { "\(device.name) (\(rooms[device.room]?.lowercased() ?? "no room"))" }
        let activations = events.filter(\.isOn)
        var faults: [DeviceFault] = []
        for (id, readings) in Dictionary(grouping: events, by: \.device).sorted(by: { $0.key < $1.key }) {
            guard let device = devices[id], let last = readings.last else { continue }
            if last.isOn, device.kind == .motion || device.kind == .occupancy {
                // On since the first of the readings on at the end (a gateway may repeat them).
                let since = readings.reversed().prefix(while: \.isOn).last?.time ?? last.time
                let others = activations.filter { $0.time > since && devices[$0.device].map { $0.room != device.room } ?? false }
                if now.timeIntervalSince(since) >= stuckAfter, others.count >= elsewhere {
                    faults.append(DeviceFault(
                        device: id, kind: .stuck, since: since, isOngoing: since == readings.first?.time,
                        text: "\(place(device)) has read on since \(InactivityCheck.stamp(since, flat)) while the resident was active in other rooms: "
                            + "it may be stuck, or something is left on it. It is not taken for the resident being there."))
                }
                continue
            }
            let fired = readings.filter(\.isOn).map(\.time)
            let week = fired.filter { $0 > last.time.addingTimeInterval(-7 * 86400) }
            let longest = zip(week, week.dropFirst()).map { $1.timeIntervalSince($0) }.max() ?? .infinity
            guard now.timeIntervalSince(last.time) >= max(silentAfter, min(2 * longest, silentAtMost)) else { continue }
            let usual = (0..<7).filter { back in
                let end = last.time.addingTimeInterval(-Double(back) * 86400), start = end.addingTimeInterval(-86400)
                return fired.contains { $0 > start && $0 <= end }
            }.count
            let flatActive = activations.filter { $0.time >= now.addingTimeInterval(-silentAfter) && $0.device != id }.count
            if usual >= usualDays, flatActive >= active {
                faults.append(DeviceFault(
                    device: id, kind: .silent, since: last.time,
                    text: "\(place(device)) has not reported since \(InactivityCheck.stamp(last.time, flat)), though it does every day "
                        + "and the rest of the flat was active: check its battery and its link."))
            }
        }
        return faults
    }
}
