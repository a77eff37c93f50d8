import Foundation

/// Reads a FHIR R4 Bundle with one `Patient` and their `Observation`s back into a
/// ``PatientRecord``: the reverse of ``FHIRExporter``.
///
/// Round trip: `import(export(patient, samples))` equals `(patient, samples)` with
/// - every sample date at millisecond precision (``FHIRDateTime/millisecondPrecision(_:)``)
///   and the date of birth at its UTC day;
/// - quantities in the unit exported (``FHIRExporter/exportedUnit(for:of:)``: the
///   sample's own unit for every profile unit, the canonical unit otherwise);
/// - the patient's sector and bed left out: they describe a stay in a hospital the
///   receiving registry may not know, not the patient;
/// - blood-pressure members with the correlation's time, device and source and no
///   metadata, as ``HealthSample/bloodPressure(systolic:diastolic:patient:at:device:source:id:)`` makes them.
///
/// Elements SADE derives (category, interpretation, profiles) are not read back. A
/// Bundle from elsewhere is accepted when each Observation has a code SADE knows
/// (``FHIRObservationCode``), a UUID (identifier `urn:uuid:…`, `id` or `fullUrl`), a
/// subject pointing at the Patient entry (its `fullUrl` or `Patient/<id>`), an
/// effective time with a zone and a value of the right kind. Anything else is an
/// ``FHIRImportError`` naming the entry.
public struct FHIRImporter: Sendable {
    /// Creates an importer.
    public init() {}

    /// The record in a Bundle given as JSON.
    public func record(from json: Data) throws(FHIRImportError) -> PatientRecord {
        let bundle: FHIRBundle
        do {
            bundle = try JSONDecoder().decode(FHIRBundle.self, from: json)
        } catch let error as DecodingError {
            let described = Self.describe(error, in: json)
            // Refused as a whole, without a place: perhaps a number too large for a Double.
            if described.entry == nil, case .malformedJSON(path: "", _) = described.problem, let found = Self.unrepresentableNumber(in: json) {
                throw found
            }
            throw described
        } catch {
            throw FHIRImportError(entry: nil, problem: .malformedJSON(path: "", reason: "\(error)"))
        }
        return try record(from: bundle)
    }

    /// The record in `bundle`.
    public func record(from bundle: FHIRBundle) throws(FHIRImportError) -> PatientRecord {
        guard bundle.resourceType == "Bundle" else { throw FHIRImportError(entry: nil, problem: .notABundle(resourceType: bundle.resourceType)) }
        let type = bundle.type ?? ""
        guard ["collection", "searchset", "transaction", "batch"].contains(type) else {
            throw FHIRImportError(entry: nil, problem: .unsupportedBundleType(type.isEmpty ? "(none)" : type))
        }
        let entries = bundle.entry ?? []
        var found: (index: Int, resource: FHIRPatient)?
        for (index, entry) in entries.enumerated() {
            guard case .patient(let resource) = entry.resource else { continue }
            guard found == nil else { throw FHIRImportError(entry: Self.location(entry, index), problem: .secondPatient) }
            found = (index, resource)
        }
        guard let found else { throw FHIRImportError(entry: nil, problem: .noPatient) }
        let patientEntry = entries[found.index]
        let patient: Patient
        do throws(FHIRImportError.Problem) {
            patient = try Self.patient(from: found.resource)
        } catch {
            throw FHIRImportError(entry: Self.location(patientEntry, found.index), problem: error)
        }
        var subjects: Set<String> = []
        if let fullUrl = patientEntry.fullUrl { subjects.insert(fullUrl) }
        if let id = found.resource.id { subjects.insert("Patient/\(id)") }

        var samples: [HealthSample] = []
        var seen: Set<UUID> = []
        for (index, entry) in entries.enumerated() where index != found.index {
            do throws(FHIRImportError.Problem) {
                guard let resource = entry.resource else { throw FHIRImportError.Problem.missingElement("resource") }
                guard case .observation(let observation) = resource else { throw FHIRImportError.Problem.wrongResourceType(resource.resourceType) }
                let sample = try Self.sample(from: observation, fullUrl: entry.fullUrl, patient: patient.id, subjects: subjects)
                // A blood-pressure component is a sample of its own, with its own UUID.
                for id in [sample.id] + Self.memberIDs(of: sample) where !seen.insert(id).inserted {
                    throw FHIRImportError.Problem.duplicateSample(id)
                }
                samples.append(sample)
            } catch {
                throw FHIRImportError(entry: Self.location(entry, index), problem: error)
            }
        }
        return PatientRecord(patient: patient, samples: samples)
    }

    private static func memberIDs(of sample: HealthSample) -> [UUID] {
        guard case .correlation(let members) = sample.value else { return [] }
        return members.map(\.id)
    }

    static func location(_ entry: FHIRBundle.Entry, _ index: Int) -> FHIRImportError.Entry {
        FHIRImportError.Entry(index: index, fullUrl: entry.fullUrl, id: entry.resource?.id)
    }

    // MARK: Patient

    static func patient(from resource: FHIRPatient) throws(FHIRImportError.Problem) -> Patient {
        typealias URL = FHIRPatient.ExtensionURL
        let identifiers = resource.identifier ?? []
        guard let id = identifiers.first(where: { $0.system == FHIRSystem.sadePatient })?.value ?? resource.id ?? identifiers.first?.value,
            !id.isEmpty
        else { throw .missingElement("identifier") }
        var patient = Patient(id: PatientID(id), name: resource.name?.first?.fullName ?? "")
        switch resource.gender {
        case nil, "unknown": patient.sex = .notSet
        case "female": patient.sex = .female
        case "male": patient.sex = .male
        case "other": patient.sex = .other
        case let gender?: throw .badValue(element: "gender", reason: "'\(gender)' is not male, female, other or unknown")
        }
        if let birthDate = resource.birthDate {
            guard let date = FHIRDateTime.day(from: birthDate) else { throw .badDate(element: "birthDate", value: birthDate) }
            patient.dateOfBirth = date
        }
        let extensions = resource.extension ?? []
        if let code = extensions.first(URL.bloodType)?.valueCode {
            guard let bloodType = BloodType(rawValue: code) else { throw .badValue(element: "extension blood-type", reason: "'\(code)' is not a blood type") }
            patient.bloodType = bloodType
        }
        for range in extensions.all(URL.typicalRange) {
            let (type, bounds) = try typicalRange(range)
            patient.rangeOverrides[type] = bounds
        }
        patient.usesSpO2Scale2 = extensions.first(URL.spO2Scale2)?.valueBoolean ?? false
        for attribute in extensions.all(URL.attribute) {
            let (key, value) = try pair(attribute, "extension attribute")
            patient.attributes[key] = value
        }
        do {
            try patient.validate()
        } catch {
            throw .invalidPatient(error)
        }
        return patient
    }

    private static func typicalRange(_ range: FHIRExtension) throws(FHIRImportError.Problem) -> (QuantityType, ClosedRange<Double>) {
        let element = "extension typical-range"
        guard let name = range.part("type")?.valueCode, let type = QuantityType(rawValue: name) else {
            throw .badValue(element: element, reason: "type must be a SADE quantity type")
        }
        guard let low = range.part("range")?.valueRange?.low, let high = range.part("range")?.valueRange?.high else {
            throw .missingElement("\(element) range low and high")
        }
        let lower = try converted(quantity(low, of: type, "\(element) low"), to: type.canonicalUnit, "\(element) low")
        let upper = try converted(quantity(high, of: type, "\(element) high"), to: type.canonicalUnit, "\(element) high")
        guard lower <= upper else { throw .badValue(element: element, reason: "low \(lower) is above high \(upper)") }
        return (type, lower...upper)
    }

    static func pair(_ pair: FHIRExtension, _ element: String) throws(FHIRImportError.Problem) -> (String, String) {
        guard let key = pair.part("key")?.valueString, let value = pair.part("value")?.valueString else {
            throw .badValue(element: element, reason: "needs parts key and value, both valueString")
        }
        return (key, value)
    }

    /// A FHIR quantity as a quantity of `type`: a value and a known UCUM unit of its dimension.
    static func quantity(_ quantity: FHIRQuantity, of type: QuantityType, _ element: String) throws(FHIRImportError.Problem) -> HealthQuantity {
        guard let value = quantity.value else { throw .missingElement("\(element).value") }
        let unit = try unit(quantity, element)
        guard unit.dimension == type.canonicalUnit.dimension else {
            throw .badUnit(element: element, unit: quantity.code ?? quantity.unit ?? "", reason: "is not a unit of \(type.rawValue)")
        }
        return HealthQuantity(value, unit)
    }

    /// `quantity` in `unit`; the dimensions are checked already, so this fails only on a bug.
    static func converted(_ quantity: HealthQuantity, to unit: HealthUnit, _ element: String) throws(FHIRImportError.Problem) -> Double {
        do {
            return try quantity.value(in: unit)
        } catch {
            throw .badUnit(element: element, unit: quantity.unit.symbol, reason: error.description)
        }
    }

    /// The unit of a FHIR quantity: its UCUM `code` (or, without one, its `unit`).
    static func unit(_ quantity: FHIRQuantity, _ element: String) throws(FHIRImportError.Problem) -> HealthUnit {
        guard let code = quantity.code ?? quantity.unit else { throw .missingElement("\(element).code") }
        if let system = quantity.system, system != FHIRSystem.ucum {
            throw .badUnit(element: element, unit: code, reason: "is in \(system), not UCUM (\(FHIRSystem.ucum))")
        }
        do {
            return try HealthUnit(parsing: code)
        } catch {
            throw .badUnit(element: element, unit: code, reason: "is not a UCUM unit SADE knows")
        }
    }
}
