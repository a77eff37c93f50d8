import Foundation

/// A sample as every backend stores it: one row per sample (a correlation's members
/// are rows of their own that name it), the value in the type's canonical unit with
/// the value as given beside it when the units differ, metadata as sorted JSON.
package struct StoredSample: Sendable {
    package var uuid: UUID
    package var patient: String
    package var type: String
    package var value: Double?
    package var unit: String?
    package var originalValue: Double?
    package var start: Double
    package var end: Double
    package var device: String?
    package var source: String?
    package var metadata: String?

    /// The row of a validated sample (without its members or waveform).
    ///
    /// - Throws: ``HealthError/invalidValue(field:reason:)`` when a quantity's type is not a quantity type.
    package init(_ sample: HealthSample) throws(HealthError) {
        switch sample.value {
        case .quantity(let quantity):
            guard case .quantity(let type) = sample.type else { throw .invalidValue(field: "value", reason: "not a quantity type") }
            value = try quantity.value(in: type.canonicalUnit)
            unit = quantity.unit.symbol
            // Converting back from the canonical unit may differ in the last bit, so the
            // value as given is kept beside it whenever the units differ.
            originalValue = quantity.unit == type.canonicalUnit ? nil : quantity.value
        case .category(let raw):
            value = Double(raw)
        case .correlation, .electrocardiogram:
            break
        }
        uuid = sample.id
        patient = sample.patient.rawValue
        type = sample.type.identifier
        start = sample.start.timeIntervalSinceReferenceDate
        end = sample.end.timeIntervalSinceReferenceDate
        device = sample.device
        source = sample.source
        metadata = sample.metadata.isEmpty ? nil : StoredJSON.encode(sample.metadata)
    }

    /// A row as read back.
    package init(
        uuid: UUID, patient: String, type: String, value: Double?, unit: String?, originalValue: Double?, start: Double, end: Double,
        device: String?, source: String?, metadata: String?
    ) {
        self.uuid = uuid
        self.patient = patient
        self.type = type
        self.value = value
        self.unit = unit
        self.originalValue = originalValue
        self.start = start
        self.end = end
        self.device = device
        self.source = source
        self.metadata = metadata
    }
}

/// Turns stored rows back into samples: the quantity in the unit it was saved in, a
/// correlation without its members and an ECG without its waveform (the backend
/// fills those in). Units and types are parsed once per symbol, not once per row.
package struct StoredSampleDecoder {
    private var units: [String: HealthUnit] = [:]
    private var types: [String: HealthType] = [:]

    package init() {}

    /// The sample a row holds.
    ///
    /// - Throws: ``HealthError/storage(_:)`` for a row no sample could have made.
    package mutating func sample(_ row: StoredSample) throws(HealthError) -> HealthSample {
        let type = try healthType(row.type)
        let value: HealthSample.Value
        switch type {
        case .quantity:
            guard let canonical = row.value, let symbol = row.unit else { throw .storage("quantity sample \(row.uuid) has no value or unit") }
            value = .quantity(HealthQuantity(row.originalValue ?? canonical, try unit(symbol)))
        case .category:
            guard let raw = row.value, let category = Int(exactly: raw) else { throw .storage("category sample \(row.uuid) has no whole value") }
            value = .category(category)
        case .correlation:
            value = .correlation([])
        case .electrocardiogram:
            value = .electrocardiogram(Electrocardiogram(samplingFrequency: 0, voltages: []))
        }
        return HealthSample(
            id: row.uuid, patient: PatientID(rawValue: row.patient), type: type, value: value,
            start: Date(timeIntervalSinceReferenceDate: row.start), end: Date(timeIntervalSinceReferenceDate: row.end),
            device: row.device, source: row.source, metadata: try row.metadata.map { json throws(HealthError) in try StoredJSON.decode([String: String].self, json) } ?? [:])
    }

    private mutating func unit(_ symbol: String) throws(HealthError) -> HealthUnit {
        if let unit = units[symbol] { return unit }
        let unit = try HealthUnit(parsing: symbol)
        units[symbol] = unit
        return unit
    }

    private mutating func healthType(_ identifier: String) throws(HealthError) -> HealthType {
        if let type = types[identifier] { return type }
        let type = try HealthType(identifier: identifier)
        types[identifier] = type
        return type
    }
}
