import Foundation

/// One observation about one patient (HealthKit's `HKSample`): a quantity, a
/// category value, a correlation of quantities (blood pressure) or an ECG waveform,
/// over a time interval, with where it came from.
public struct HealthSample: Hashable, Sendable, Codable, Identifiable {
    /// What the sample holds.
    public enum Value: Hashable, Sendable, Codable {
        /// A measured quantity of a ``QuantityType``.
        case quantity(HealthQuantity)
        /// A category value of a ``CategoryType`` (e.g. a ``ConsciousnessLevel`` raw value).
        case category(Int)
        /// Quantity samples taken together (systolic + diastolic); each is a sample of its own.
        case correlation([HealthSample])
        /// A waveform.
        case electrocardiogram(Electrocardiogram)
    }

    /// Unique, kept by every store and by FHIR export/import.
    public var id: UUID
    /// The subject.
    public var patient: PatientID
    /// What kind of sample this is.
    public var type: HealthType
    /// The value.
    public var value: Value
    /// When the observation started.
    public var start: Date
    /// When it ended; equal to ``start`` for a point in time.
    public var end: Date
    /// The device that measured it, e.g. `pulse-oximeter-17`.
    public var device: String?
    /// The app, agent or user that recorded it.
    public var source: String?
    /// Free-form key–value pairs.
    public var metadata: [String: String]

    /// Creates a sample; `end` defaults to `start`.
    public init(
        id: UUID = .timeOrdered(), patient: PatientID, type: HealthType, value: Value, start: Date, end: Date? = nil,
        device: String? = nil, source: String? = nil, metadata: [String: String] = [:]
    ) {
        self.id = id
        self.patient = patient
        self.type = type
        self.value = value
        self.start = start
        self.end = end ?? start
        self.device = device
        self.source = source
        self.metadata = metadata
    }

    /// A quantity sample.
    public static func quantity(
        _ type: QuantityType, _ value: Double, _ unit: HealthUnit? = nil, patient: PatientID, at start: Date, end: Date? = nil,
        device: String? = nil, source: String? = nil, metadata: [String: String] = [:], id: UUID = .timeOrdered()
    ) -> HealthSample {
        HealthSample(
            id: id, patient: patient, type: .quantity(type), value: .quantity(HealthQuantity(value, unit ?? type.canonicalUnit)),
            start: start, end: end, device: device, source: source, metadata: metadata)
    }

    /// A category sample.
    public static func category(
        _ type: CategoryType, _ value: Int, patient: PatientID, at start: Date, end: Date? = nil,
        device: String? = nil, source: String? = nil, id: UUID = .timeOrdered()
    ) -> HealthSample {
        HealthSample(id: id, patient: patient, type: .category(type), value: .category(value), start: start, end: end, device: device, source: source)
    }

    /// A blood-pressure correlation of a systolic and a diastolic sample (mmHg).
    public static func bloodPressure(
        systolic: Double, diastolic: Double, patient: PatientID, at start: Date, device: String? = nil, source: String? = nil,
        id: UUID = .timeOrdered()
    ) -> HealthSample {
        HealthSample(
            id: id, patient: patient, type: .correlation(.bloodPressure),
            value: .correlation([
                .quantity(.bloodPressureSystolic, systolic, patient: patient, at: start, device: device, source: source),
                .quantity(.bloodPressureDiastolic, diastolic, patient: patient, at: start, device: device, source: source),
            ]),
            start: start, device: device, source: source)
    }

    /// The quantity, if this is a quantity sample.
    public var quantity: HealthQuantity? {
        if case .quantity(let quantity) = value { return quantity }
        return nil
    }

    /// The value in the type's canonical unit, if this is a quantity sample.
    public var canonicalValue: Double? {
        guard case .quantity(let type) = type, let quantity else { return nil }
        return try? quantity.value(in: type.canonicalUnit)
    }
}
