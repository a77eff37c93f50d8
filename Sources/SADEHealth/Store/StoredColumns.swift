import Foundation

// How every backend keeps the parts of a record that are sets or maps: as JSON text,
// sorted, so equal values make equal text (and a unique index can compare them).

extension AccessGrant {
    /// The granted types as a sorted JSON array of identifiers; `nil` for all types.
    package var typesColumn: String? { grantedList(types.map { $0.map(\.identifier) }) }
    /// The granted patients as a sorted JSON array; `nil` for every patient.
    package var patientsColumn: String? { grantedList(patients.map { $0.map(\.rawValue) }) }

    /// A grant as stored.
    ///
    /// - Throws: ``HealthError/storage(_:)`` for an unknown kind, access mode or type.
    package init(kind: String, name: String, access: String, typesColumn: String?, patientsColumn: String?) throws(HealthError) {
        guard let kind = Principal.Kind(rawValue: kind), let access = AccessMode(rawValue: access) else {
            throw .storage("a grant has an unknown principal kind or access mode")
        }
        var types: Set<HealthType>?
        if let typesColumn {
            types = []
            for identifier in try StoredJSON.decode([String].self, typesColumn) {
                types?.insert(try HealthType(identifier: identifier))
            }
        }
        let patients = try patientsColumn.map { json throws(HealthError) in Set(try StoredJSON.decode([String].self, json).map(PatientID.init(rawValue:))) }
        self.init(Principal(kind, name), access, types: types, patients: patients)
    }

    private func grantedList(_ values: [String]?) -> String? {
        values.map { StoredJSON.encode($0.sorted()) }
    }
}

extension Patient {
    /// The range overrides as a JSON object of type identifier to `[lower, upper]`.
    package var rangeOverridesColumn: String {
        StoredJSON.encode(Dictionary(uniqueKeysWithValues: rangeOverrides.map { ($0.key.rawValue, [$0.value.lowerBound, $0.value.upperBound]) }))
    }

    /// Range overrides as stored. One for a quantity type this process has not registered
    /// (an app's, read by a process of another app, or by `sade` itself) is left out, so
    /// the patient stays readable; saving the patient from such a process drops it.
    ///
    /// - Throws: ``HealthError/storage(_:)`` naming the patient for bounds out of order.
    package static func rangeOverrides(_ column: String, of patient: String) throws(HealthError) -> [QuantityType: ClosedRange<Double>] {
        var overrides: [QuantityType: ClosedRange<Double>] = [:]
        for (identifier, bounds) in try StoredJSON.decode([String: [Double]].self, column) {
            guard let type = QuantityType(rawValue: identifier) else { continue }
            guard bounds.count == 2, bounds[0] <= bounds[1] else {
                throw .storage("patient \(patient) has an unreadable range override for \(identifier)")
            }
            overrides[type] = bounds[0]...bounds[1]
        }
        return overrides
    }
}

/// JSON text with sorted keys, and its reading with storage errors.
package enum StoredJSON {
    /// `value` as JSON text with sorted keys.
    package static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // Arrays and maps of strings and numbers always encode; "null" is never stored.
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }

    /// Reads JSON text written by ``encode(_:)``.
    ///
    /// - Throws: ``HealthError/storage(_:)`` when it is not such JSON.
    package static func decode<T: Decodable>(_ type: T.Type, _ json: String) throws(HealthError) -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(json.utf8))
        } catch {
            throw .storage("a stored JSON value is unreadable: \(error)")
        }
    }
}
