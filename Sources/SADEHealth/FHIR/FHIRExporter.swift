import Foundation

/// Writes a patient and their samples as a FHIR R4 `Bundle` of type `collection`: the
/// `Patient` first, then one `Observation` per sample, in the order given.
///
/// Observations follow the HL7 vital-signs profile where one applies
/// (``FHIRObservationCode``): status `final`, a category, the LOINC (or SNOMED) code,
/// the subject as a reference to the Patient entry's `urn:uuid:` `fullUrl`,
/// `effectiveDateTime` for a point in time and `effectivePeriod` for an interval (to
/// the millisecond, ``FHIRDateTime``), the value with a UCUM unit, an
/// ``FHIRInterpretation`` when the value is outside the patient's typical range, and
/// the device as `device.display`. The sample's UUID is the Observation's `id`, its
/// identifier (`urn:uuid:…`) and its entry's `fullUrl`, so ``FHIRImporter`` gives the
/// same samples back. Blood pressure is one panel with systolic and diastolic
/// components; an ECG carries its voltages in `valueSampledData`.
///
/// Units: a value keeps its unit when the vital-signs profile allows it (the
/// canonical unit, `[degF]`, `g`, `[lb_av]`); any other unit (`Hz`, `kPa`, `s` …) is
/// converted to the type's canonical unit (``exportedUnit(for:of:)``). ECG voltages
/// keep their unit.
public struct FHIRExporter: Sendable {
    /// Creates an exporter.
    public init() {}

    /// The Bundle for `patient` and `samples`.
    ///
    /// - Throws: ``HealthError`` when the patient (``Patient/validate()``: e.g. a date
    ///   of birth outside the years 0001–9999) or a sample (``HealthSample/validate()``)
    ///   is invalid, or a sample is about another patient.
    public func bundle(patient: Patient, samples: [HealthSample]) throws(HealthError) -> FHIRBundle {
        try patient.validate()
        let patientURL = Self.fullUrl(of: patient.id)
        let subject = FHIRReference(reference: patientURL, display: patient.name.isEmpty ? nil : patient.name)
        var entries = [FHIRBundle.Entry(fullUrl: patientURL, resource: .patient(resource(for: patient)))]
        for sample in samples {
            guard sample.patient == patient.id else {
                throw .invalidValue(field: "patient", reason: "sample \(sample.id) is about \(sample.patient), not \(patient.id)")
            }
            try sample.validate()
            entries.append(FHIRBundle.Entry(fullUrl: sample.id.urn, resource: .observation(try observation(for: sample, of: patient, subject: subject))))
        }
        return FHIRBundle(entry: entries)
    }

    /// The Bundle for `patient` and `samples` as JSON (keys sorted, so the same data
    /// always gives the same bytes).
    public func json(patient: Patient, samples: [HealthSample], prettyPrinted: Bool = true) throws(HealthError) -> Data {
        try Self.json(bundle(patient: patient, samples: samples), prettyPrinted: prettyPrinted)
    }

    /// `bundle` as JSON, keys sorted.
    public static func json(_ bundle: FHIRBundle, prettyPrinted: Bool = true) throws(HealthError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = prettyPrinted ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(bundle)
        } catch {
            throw .invalidValue(field: "bundle", reason: "cannot be written as JSON: \(error)")
        }
    }

    /// The `fullUrl` of a patient's entry: a `urn:uuid:` that is the same in every export.
    public static func fullUrl(of patient: PatientID) -> String {
        UUID(stableFor: "sade-patient:" + patient.rawValue).urn
    }

    /// The unit a quantity of `type` is exported in: its own when the vital-signs
    /// profile allows it, else the type's canonical unit.
    public static func exportedUnit(for unit: HealthUnit, of type: QuantityType) -> HealthUnit {
        let allowed: [HealthUnit] =
            switch type {
            case .bodyTemperature: [.degreeCelsius, .degreeFahrenheit]
            case .bodyMass: [.kilogram, .gram, .pound]
            default: [type.canonicalUnit]
            }
        return allowed.contains(unit) ? unit : type.canonicalUnit
    }

    // MARK: Patient

    private func resource(for patient: Patient) -> FHIRPatient {
        typealias URL = FHIRPatient.ExtensionURL
        var extensions: [FHIRExtension] = []
        if patient.bloodType != .notSet {
            extensions.append(FHIRExtension(url: URL.bloodType, valueCode: patient.bloodType.rawValue))
        }
        for (type, range) in patient.rangeOverrides.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            let bounds = FHIRRange(low: FHIRQuantity(range.lowerBound, type.canonicalUnit), high: FHIRQuantity(range.upperBound, type.canonicalUnit))
            extensions.append(
                FHIRExtension(url: URL.typicalRange, extension: [FHIRExtension(url: "type", valueCode: type.rawValue), FHIRExtension(url: "range", valueRange: bounds)]))
        }
        if patient.usesSpO2Scale2 { extensions.append(FHIRExtension(url: URL.spO2Scale2, valueBoolean: true)) }
        for (key, value) in patient.attributes.sorted(by: { $0.key < $1.key }) {
            extensions.append(.pair(URL.attribute, key: key, value: value))
        }
        let gender: String? =
            switch patient.sex {
            case .notSet: nil
            case .female: "female"
            case .male: "male"
            case .other: "other"
            }
        return FHIRPatient(
            id: Self.isFHIRId(patient.id.rawValue) ? patient.id.rawValue : nil, extension: extensions.isEmpty ? nil : extensions,
            identifier: [FHIRIdentifier(system: FHIRSystem.sadePatient, value: patient.id.rawValue)],
            name: patient.name.isEmpty ? nil : [FHIRHumanName(text: patient.name)], gender: gender,
            birthDate: patient.dateOfBirth.map(FHIRDateTime.dateString(from:)))
    }

    /// Whether `text` may be a resource id: 1–64 letters, digits, `-` and `.`.
    static func isFHIRId(_ text: String) -> Bool {
        (1...64).contains(text.utf8.count)
            && text.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "-"), UInt8(ascii: "."):
                    true
                default: false
                }
            }
    }

    // MARK: Observation

    private func observation(for sample: HealthSample, of patient: Patient, subject: FHIRReference) throws(HealthError) -> FHIRObservation {
        let coding = FHIRObservationCode.of(sample.type)
        var observation = FHIRObservation(id: sample.id.uuidString.lowercased(), code: coding.code, subject: subject)
        observation.meta = coding.profile.map { FHIRMeta(profile: [$0]) }
        observation.identifier = [FHIRIdentifier(system: FHIRSystem.uri, value: sample.id.urn)]
        observation.category = [coding.categoryConcept]
        let start = FHIRDateTime.string(from: sample.start), end = FHIRDateTime.string(from: sample.end)
        if start == end {
            observation.effectiveDateTime = start
        } else {
            observation.effectivePeriod = FHIRPeriod(start: start, end: end)
        }
        observation.device = sample.device.map { FHIRReference(display: $0) }
        var extensions: [FHIRExtension] = []
        if let source = sample.source { extensions.append(FHIRExtension(url: FHIRObservation.ExtensionURL.source, valueString: source)) }
        for (key, value) in sample.metadata.sorted(by: { $0.key < $1.key }) {
            extensions.append(.pair(FHIRObservation.ExtensionURL.metadata, key: key, value: value))
        }

        switch (sample.type, sample.value) {
        case (.quantity(let type), .quantity(let quantity)):
            observation.valueQuantity = try Self.fhirQuantity(quantity, type)
            observation.interpretation = FHIRInterpretation.of(quantity, type, for: patient).map { [$0.concept] }
        case (.category(.consciousnessLevel), .category(let raw)):
            let level = ConsciousnessLevel(rawValue: raw) ?? .alert  // validated: 0...4
            let value = FHIRObservationCode.coding(of: level)
            observation.valueCodeableConcept = FHIRCodeableConcept(coding: [value], text: value.display)
        case (.category(.supplementalOxygen), .category(let raw)):
            observation.valueBoolean = raw == 1
        case (.correlation, .correlation(let members)):
            var components: [FHIRObservation.Component] = []
            for member in members {
                guard case .quantity(let type) = member.type, let quantity = member.quantity else { continue }  // validated
                components.append(
                    FHIRObservation.Component(
                        id: member.id.uuidString.lowercased(), code: FHIRObservationCode.of(member.type).code,
                        valueQuantity: try Self.fhirQuantity(quantity, type),
                        interpretation: FHIRInterpretation.of(quantity, type, for: patient).map { [$0.concept] }))
            }
            observation.component = components
        case (.electrocardiogram, .electrocardiogram(let ecg)):
            observation.valueSampledData = FHIRSampledData(
                origin: FHIRQuantity(0, ecg.unit), period: 1000 / ecg.samplingFrequency, dimensions: 1,
                data: ecg.voltages.isEmpty ? nil : ecg.voltages.map(Self.decimal).joined(separator: " "))
            extensions.append(FHIRExtension(url: FHIRObservation.ExtensionURL.ecgLead, valueString: ecg.lead))
            if let rate = ecg.averageHeartRate {
                observation.component = [
                    FHIRObservation.Component(code: FHIRObservationCode.heartRate.code, valueQuantity: FHIRQuantity(rate, .countPerMinute))
                ]
            }
        default:
            throw .invalidValue(field: "value", reason: "a \(sample.type) sample cannot hold this kind of value")
        }
        observation.extension = extensions.isEmpty ? nil : extensions
        return observation
    }

    private static func fhirQuantity(_ quantity: HealthQuantity, _ type: QuantityType) throws(HealthError) -> FHIRQuantity {
        let unit = exportedUnit(for: quantity.unit, of: type)
        return FHIRQuantity(try quantity.value(in: unit), unit)
    }

    /// The shortest decimal text that reads back as exactly `value`.
    static func decimal(_ value: Double) -> String {
        let text = "\(value)"
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }
}
