import Foundation

// What every home store checks before it writes, whatever keeps the rows.

extension FlatPlan {
    /// Checks names, the time zone, the resident, polygons and devices, naming the bad field.
    package func validate() throws(HomeError) {
        try Self.validate(name: name)
        try Self.validate(timeZone: timeZone)
        if let resident {
            do { try resident.validate(field: "resident") } catch { throw .invalidValue(field: "resident", reason: "\(error)") }
        }
        for (index, room) in rooms.enumerated() { try room.validate(field: "rooms[\(index)]") }
    }

    /// A flat's name: 1–200 characters, not only spaces.
    package static func validate(name: String) throws(HomeError) {
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty, name.count <= 200 else {
            throw .invalidValue(field: "name", reason: "must be 1–200 characters")
        }
    }

    /// An IANA time zone.
    package static func validate(timeZone: String) throws(HomeError) {
        guard TimeZone(identifier: timeZone) != nil else {
            throw .invalidValue(field: "timeZone", reason: "\(timeZone.prefix(60).debugDescription) is not an IANA time zone")
        }
    }
}

extension FlatUpdate {
    /// Checks the fields the update changes.
    package func validate() throws(HomeError) {
        if let name { try FlatPlan.validate(name: name) }
        if let timeZone { try FlatPlan.validate(timeZone: timeZone) }
    }

    /// `flat` with the update's changes.
    package func applied(to flat: Flat) -> Flat {
        var flat = flat
        if let name { flat.name = name }
        if let resident { flat.resident = resident }
        if let carers { flat.carers = carers }
        if let timeZone { flat.timeZone = timeZone }
        if let inactivity { flat.inactivity = inactivity }
        return flat
    }
}

extension RoomPlan {
    /// A room's name, polygon and devices.
    package func validate(field: String) throws(HomeError) {
        guard !name.isEmpty, name.count <= 200 else { throw .invalidValue(field: "\(field).name", reason: "must be 1–200 characters") }
        guard polygon.count >= 3 else { throw .invalidValue(field: "\(field).polygon", reason: "needs at least 3 corners") }
        guard polygon.allSatisfy({ $0.x.isFinite && $0.y.isFinite }), doors.allSatisfy({ $0.position.x.isFinite && $0.position.y.isFinite })
        else { throw .invalidValue(field: "\(field).polygon", reason: "coordinates must be finite numbers of metres") }
        for (number, device) in devices.enumerated() { try device.validate(field: "\(field).devices[\(number)]") }
    }
}

extension DevicePlan {
    /// A device's name, position and object id.
    package func validate(field: String) throws(HomeError) {
        guard !name.isEmpty, name.count <= 200 else { throw .invalidValue(field: "\(field).name", reason: "must be 1–200 characters") }
        guard position.x.isFinite, position.y.isFinite else {
            throw .invalidValue(field: "\(field).position", reason: "must be finite numbers of metres")
        }
        if let objectID, objectID.isEmpty || objectID != Device.objectID(for: objectID) {
            throw .invalidValue(field: "\(field).objectID", reason: "must be lowercase letters, digits and _ (e.g. kitchen_motion)")
        }
    }

    /// The object id the device gets in a flat whose devices already take `taken`
    /// (which gains it): its own, or one made from its name with `_2`, `_3`… added.
    ///
    /// - Throws: ``HomeError/invalidValue(field:reason:)`` when its own object id is taken.
    package func objectID(avoiding taken: inout Set<String>) throws(HomeError) -> String {
        var chosen = objectID ?? Device.objectID(for: name)
        if taken.contains(chosen) {
            guard objectID == nil else { throw .invalidValue(field: "objectID", reason: "\(chosen) is taken in this flat") }
            chosen = (2...).lazy.map { "\(chosen)_\($0)" }.first { !taken.contains($0) } ?? chosen
        }
        taken.insert(chosen)
        return chosen
    }
}

extension StateEvent {
    /// Checks a batch before it is stored: every device known, finite values, batteries in percent.
    package static func validate(_ events: [StateEvent], known: (DeviceID) -> Bool) throws(HomeError) {
        for (index, event) in events.enumerated() {
            guard known(event.device) else { throw .unknownDevice(event.device) }
            guard event.value.isFinite else { throw .invalidValue(field: "events[\(index)].value", reason: "must be a finite number") }
            if let battery = event.battery, !(0...100).contains(battery) {
                throw .invalidValue(field: "events[\(index)].battery", reason: "must be 0–100 (percent)")
            }
        }
    }
}

extension HomeMessageDraft {
    /// A message needs a title and a key.
    package func validate() throws(HomeError) {
        guard !title.isEmpty, !key.isEmpty else { throw .invalidValue(field: "message", reason: "needs a title and a key") }
    }
}
