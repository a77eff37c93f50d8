import Foundation

extension FHIRImporter {
    /// The statuses whose observations carry a result.
    static let usableStatuses: Set<String> = ["final", "amended", "corrected", "preliminary"]

    /// The sample an Observation describes.
    static func sample(
        from observation: FHIRObservation, fullUrl: String?, patient: PatientID, subjects: Set<String>
    ) throws(FHIRImportError.Problem) -> HealthSample {
        let id = try sampleID(observation, fullUrl: fullUrl)
        guard let status = observation.status else { throw .missingElement("status") }
        guard usableStatuses.contains(status) else { throw .unsupportedStatus(status) }
        guard let reference = observation.subject?.reference else { throw .missingElement("subject.reference") }
        guard subjects.contains(reference) else { throw .badReference(reference) }
        guard let code = observation.code else { throw .missingElement("code") }
        guard let type = FHIRObservationCode.type(of: code) else {
            throw .unknownCode((code.coding ?? []).map { "\($0.system ?? "")|\($0.code ?? "")" })
        }
        let (start, end) = try effective(observation)
        let device = observation.device?.display
        let extensions = observation.extension ?? []
        let source = extensions.first(FHIRObservation.ExtensionURL.source)?.valueString
        var metadata: [String: String] = [:]
        for entry in extensions.all(FHIRObservation.ExtensionURL.metadata) {
            let (key, value) = try pair(entry, "extension metadata")
            metadata[key] = value
        }

        let value: HealthSample.Value
        switch type {
        case .quantity(let quantityType):
            guard let quantity = observation.valueQuantity else { throw .missingElement("valueQuantity") }
            value = .quantity(try Self.quantity(quantity, of: quantityType, "valueQuantity"))
        case .category(.consciousnessLevel):
            guard let concept = observation.valueCodeableConcept else { throw .missingElement("valueCodeableConcept") }
            guard let level = FHIRObservationCode.consciousnessLevel(of: concept) else {
                throw .badValue(element: "valueCodeableConcept", reason: "no SNOMED code of an ACVPU level")
            }
            value = .category(level.rawValue)
        case .category(.supplementalOxygen):
            guard let onOxygen = observation.valueBoolean else { throw .missingElement("valueBoolean") }
            value = .category(onOxygen ? 1 : 0)
        case .correlation(let correlation):
            var members: [HealthSample] = []
            for memberType in [QuantityType.bloodPressureSystolic, .bloodPressureDiastolic] where correlation.memberTypes.contains(memberType) {
                let memberCode = FHIRObservationCode.of(.quantity(memberType))
                let codeText = memberCode.code.coding?.first?.code ?? memberType.rawValue
                guard let component = observation.component?.first(where: { FHIRObservationCode.type(of: $0.code ?? FHIRCodeableConcept(coding: nil)) == .quantity(memberType) }) else {
                    throw .missingElement("component \(codeText) (\(memberType.rawValue))")
                }
                guard let quantity = component.valueQuantity else { throw .missingElement("component \(codeText) valueQuantity") }
                let memberID: UUID
                if let text = component.id {
                    guard let parsed = UUID(urnOrString: text) else { throw .badIdentifier("component \(codeText) id '\(text)' is not a UUID") }
                    memberID = parsed
                } else {
                    memberID = UUID(stableFor: "\(id.uuidString)/\(codeText)")
                }
                let member = try Self.quantity(quantity, of: memberType, "component \(codeText) valueQuantity")
                members.append(
                    HealthSample(
                        id: memberID, patient: patient, type: .quantity(memberType), value: .quantity(member), start: start, end: end, device: device,
                        source: source))
            }
            value = .correlation(members)
        case .electrocardiogram:
            value = .electrocardiogram(try electrocardiogram(observation))
        }
        let sample = HealthSample(
            id: id, patient: patient, type: type, value: value, start: start, end: end, device: device, source: source, metadata: metadata)
        do {
            try sample.validate()
        } catch {
            throw .invalidSample(error)
        }
        return sample
    }

    /// The sample's UUID: the identifier `urn:uuid:…`, else the resource id, else the entry's `fullUrl`.
    private static func sampleID(_ observation: FHIRObservation, fullUrl: String?) throws(FHIRImportError.Problem) -> UUID {
        let identifier = observation.identifier?.first { $0.system == FHIRSystem.uri && $0.value?.hasPrefix("urn:uuid:") == true }?.value
        for candidate in [identifier, observation.id, fullUrl].compactMap(\.self) {
            if let id = UUID(urnOrString: candidate) { return id }
        }
        throw .badIdentifier("neither an identifier urn:uuid:…, the id nor the fullUrl is a UUID")
    }

    /// When: `effectiveDateTime`, or `effectivePeriod` (an open end is the start).
    private static func effective(_ observation: FHIRObservation) throws(FHIRImportError.Problem) -> (Date, Date) {
        if let text = observation.effectiveDateTime {
            guard let date = FHIRDateTime.date(from: text) else { throw .badDate(element: "effectiveDateTime", value: text) }
            return (date, date)
        }
        guard let period = observation.effectivePeriod else { throw .missingElement("effective[x]") }
        guard let startText = period.start else { throw .missingElement("effectivePeriod.start") }
        guard let start = FHIRDateTime.date(from: startText) else { throw .badDate(element: "effectivePeriod.start", value: startText) }
        guard let endText = period.end else { return (start, start) }
        guard let end = FHIRDateTime.date(from: endText) else { throw .badDate(element: "effectivePeriod.end", value: endText) }
        return (start, end)
    }

    /// An ECG from `valueSampledData`: one dimension, voltages `origin + factor × datum`.
    private static func electrocardiogram(_ observation: FHIRObservation) throws(FHIRImportError.Problem) -> Electrocardiogram {
        guard let sampled = observation.valueSampledData else { throw .missingElement("valueSampledData") }
        let unit = try unit(sampled.origin, "valueSampledData.origin")
        guard unit.dimension == .voltage else {
            throw .badUnit(element: "valueSampledData.origin", unit: sampled.origin.code ?? unit.symbol, reason: "is not a voltage")
        }
        guard sampled.dimensions == 1 else {
            throw .badValue(element: "valueSampledData.dimensions", reason: "SADE reads one lead (1), not \(sampled.dimensions)")
        }
        guard sampled.period > 0, sampled.period.isFinite else {
            throw .badValue(element: "valueSampledData.period", reason: "must be a positive number of milliseconds")
        }
        let origin = sampled.origin.value ?? 0, factor = sampled.factor ?? 1
        var voltages: [Double] = []
        for (position, token) in (sampled.data ?? "").split(separator: " ").enumerated() {
            guard let datum = Double(token), datum.isFinite else {
                throw .badValue(element: "valueSampledData.data", reason: "'\(token)' at position \(position) is not a number")
            }
            // Without origin and factor the datum is the voltage, bit for bit.
            voltages.append(origin == 0 && factor == 1 ? datum : origin + factor * datum)
        }
        var averageHeartRate: Double?
        if let component = observation.component?.first(where: { FHIRObservationCode.type(of: $0.code ?? FHIRCodeableConcept(coding: nil)) == .quantity(.heartRate) }),
            let quantity = component.valueQuantity
        {
            let element = "component 8867-4 valueQuantity"
            averageHeartRate = try converted(Self.quantity(quantity, of: .heartRate, element), to: .countPerMinute, element)
        }
        let lead = (observation.extension ?? []).first(FHIRObservation.ExtensionURL.ecgLead)?.valueString ?? "I"
        return Electrocardiogram(
            samplingFrequency: frequency(period: sampled.period), lead: lead, voltages: voltages, unit: unit, averageHeartRate: averageHeartRate)
    }

    /// The sampling frequency in hertz for a period in milliseconds: the shortest
    /// decimal whose period is exactly `period`, so 300 Hz comes back as 300 and not
    /// as 299.99999999999994.
    static func frequency(period: Double) -> Double {
        let raw = 1000 / period
        for digits in 0...15 {
            let scale = pow(10, Double(digits))
            let candidate = (raw * scale).rounded() / scale
            if candidate > 0, 1000 / candidate == period { return candidate }
        }
        return raw
    }
}
