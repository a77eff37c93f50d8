import Foundation
import SADENotification

/// A device's latest state as stored: its newest event by time (not arrival), its
/// battery, and when its value last changed. Times in milliseconds since 1970.
package struct StoredLatest: Sendable, Equatable {
    package var value: Double
    package var battery: Int?
    package var time: Int64
    package var lastChanged: Int64
    package var lastBattery: Int?

    package init(value: Double, battery: Int?, time: Int64, lastChanged: Int64, lastBattery: Int?) {
        self.value = value
        self.battery = battery
        self.time = time
        self.lastChanged = lastChanged
        self.lastBattery = lastBattery
    }

    /// The state after `events` of one device, from `current`; `nil` when none of them
    /// is newer than what is known (older events are history only).
    package static func after(_ events: [StateEvent], from current: StoredLatest?) -> StoredLatest? {
        var value = current?.value, battery = current?.battery, lastBattery = current?.battery
        var time = current?.time ?? .min, changed = current?.lastChanged ?? .min
        var moved = false
        for event in events.sorted(by: { $0.time < $1.time }) {
            let at = HomeTime.milliseconds(event.time)
            guard at >= time else { continue }
            if value != event.value { changed = at }
            value = event.value
            time = at
            if let charge = event.battery { battery = charge; lastBattery = charge }
            moved = true
        }
        guard moved, let value else { return nil }
        return StoredLatest(value: value, battery: battery, time: time, lastChanged: changed, lastBattery: lastBattery)
    }

    /// The device's state as the store's protocol returns it.
    package func state(of device: Device) -> DeviceState {
        DeviceState(
            device: device, latest: StateEvent(device: device.id, value: value, battery: battery, time: HomeTime.date(time)),
            lastChanged: HomeTime.date(lastChanged), battery: lastBattery)
    }
}

/// Where a flat's resident is, as stored. Times in milliseconds since 1970.
package struct StoredOccupancy: Sendable, Equatable {
    package var room: RoomID
    package var previousRoom: RoomID?
    package var since: Int64

    package init(room: RoomID, previousRoom: RoomID?, since: Int64) {
        self.room = room
        self.previousRoom = previousRoom
        self.since = since
    }

    /// The flats whose resident `events` move, with where they are now: a motion in
    /// another room than the resident's, no older than their arrival there, moves them.
    /// `current` holds what is stored for the flats of the motions.
    package static func after(_ events: [StateEvent], devices: [DeviceID: Device], current: [FlatID: StoredOccupancy]) -> [FlatID: StoredOccupancy] {
        var now = current, moved: [FlatID: StoredOccupancy] = [:]
        for event in motions(in: events, devices: devices) {
            guard let device = devices[event.device] else { continue }
            let at = HomeTime.milliseconds(event.time)
            if let there = now[device.flat] {
                guard there.room != device.room, at >= there.since else { continue }
                now[device.flat] = StoredOccupancy(room: device.room, previousRoom: there.room, since: at)
            } else {
                now[device.flat] = StoredOccupancy(room: device.room, previousRoom: nil, since: at)
            }
            moved[device.flat] = now[device.flat]
        }
        return moved
    }

    /// The motions detected among `events`, oldest first.
    package static func motions(in events: [StateEvent], devices: [DeviceID: Device]) -> [StateEvent] {
        events.filter { devices[$0.device]?.kind.rawValue == DeviceKind.motion.rawValue && $0.isOn }.sorted { $0.time < $1.time }
    }

    /// The occupancy as the store's protocol returns it.
    package func occupancy(of flat: FlatID) -> Occupancy {
        Occupancy(flat: flat, room: room, previousRoom: previousRoom, since: HomeTime.date(since))
    }
}

extension DeviceKind {
    /// A kind read back from its stored columns (an application's own kinds need no registry).
    package static func stored(
        rawValue: String, category: String, unit: String, domain: String, deviceClass: String?, isGeneration: Bool, isActivity: Bool
    ) -> DeviceKind {
        DeviceKind(
            rawValue: rawValue, category: DeviceCategory(rawValue: category) ?? .detection, unit: unit, domain: domain,
            deviceClass: deviceClass, isGeneration: isGeneration, isResidentActivity: isActivity)
    }
}

extension HomeMessage {
    /// A message read back from its stored columns (times in milliseconds since 1970).
    package static func stored(
        id: Int64, flat: FlatID, device: DeviceID?, severity: String, title: String, text: String, key: String, raisedAt: Int64,
        expiresAt: Int64?, state: String, confirmedBy: String?, confirmedAt: Int64?, notice: String?
    ) throws(HomeError) -> HomeMessage {
        guard let severityValue = NotificationSeverity(rawValue: severity), let stateValue = HomeMessageState(rawValue: state) else {
            throw .storage("message \(id) has an unknown class or state: \(severity), \(state)")
        }
        return HomeMessage(
            id: id, flat: flat, device: device, severity: severityValue, title: title, text: text, key: key,
            raisedAt: HomeTime.date(raisedAt), expiresAt: expiresAt.map(HomeTime.date), state: stateValue, confirmedBy: confirmedBy,
            confirmedAt: confirmedAt.map(HomeTime.date), notice: notice.flatMap(UUID.init(uuidString:)))
    }
}

extension HomeMessageDraft {
    /// The state a raised message starts in: silent ones are only logged.
    package var initialState: HomeMessageState { severity == .silent ? .logged : .open }
}
