import Foundation

extension HealthSample {
    /// The dates a sample may have: the years 0001 to 9999 (UTC), the years FHIR and
    /// every date text SADE writes can hold. Anything else (infinite, not a number,
    /// year 10000) is a wrong clock or a wrong field, never an observation.
    public static let possibleDates: Range<Date> =
        Date(timeIntervalSince1970: -62_135_596_800)..<Date(timeIntervalSince1970: 253_402_300_800)

    /// Checks that the sample could be real: the patient identifier is usable
    /// (``PatientID/validate(field:)``); start and end lie in ``possibleDates`` and the
    /// interval does not end before it starts; device, source and metadata hold no NUL;
    /// the value matches the type, lies in the type's possible range and has a unit of
    /// the right dimension; a correlation holds one valid member of each of its member
    /// types, about its patient and at its time; an ECG has at least one voltage.
    ///
    /// - Throws: ``HealthError/invalidValue(field:reason:)`` naming the field (`unit`
    ///   for a unit of the wrong dimension).
    public func validate() throws(HealthError) {
        try patient.validate()
        for (field, date) in [("start", start), ("end", end)] where !Self.possibleDates.contains(date) {
            throw .invalidValue(field: field, reason: "\(date.timeIntervalSince1970) s since 1970 is not a date in the years 0001–9999")
        }
        guard end >= start else { throw .invalidValue(field: "end", reason: "ends before it starts") }
        try HealthText.validateFreeText(device, field: "device")
        try HealthText.validateFreeText(source, field: "source")
        for (key, value) in metadata {
            try HealthText.validateFreeText(key, field: "metadata")
            try HealthText.validateFreeText(value, field: "metadata")
        }
        switch (type, value) {
        case (.quantity(let type), .quantity(let quantity)):
            guard quantity.value.isFinite else { throw .invalidValue(field: "value", reason: "is not a finite number") }
            let canonical: Double
            do {
                canonical = try quantity.value(in: type.canonicalUnit)
            } catch {
                throw .invalidValue(field: "unit", reason: "\(quantity.unit.symbol) is not a unit of \(type.rawValue) (\(error))")
            }
            let range = type.possibleValues
            guard range.contains(canonical) else {
                throw .invalidValue(
                    field: "value",
                    reason: "\(type.rawValue) of \(quantity) is outside \(range.lowerBound)–\(range.upperBound) \(type.canonicalUnit)")
            }
        case (.category(let type), .category(let raw)):
            guard type.possibleValues.contains(raw) else {
                throw .invalidValue(field: "value", reason: "\(type.rawValue) takes values \(type.possibleValues), not \(raw)")
            }
        case (.correlation(let type), .correlation(let members)):
            try validate(members, of: type)
        case (.electrocardiogram, .electrocardiogram(let ecg)):
            guard ecg.samplingFrequency > 0, ecg.samplingFrequency.isFinite else {
                throw .invalidValue(field: "samplingFrequency", reason: "must be a positive number of hertz")
            }
            guard ecg.unit.dimension == .voltage else {
                throw .invalidValue(field: "unit", reason: "\(ecg.unit.symbol) is not a voltage (V, mV, µV)")
            }
            guard !ecg.voltages.isEmpty else { throw .invalidValue(field: "voltages", reason: "an ECG needs at least one voltage") }
            guard ecg.voltages.allSatisfy(\.isFinite) else { throw .invalidValue(field: "voltages", reason: "must be finite numbers") }
            try HealthText.validateFreeText(ecg.lead, field: "lead")
        default:
            throw .invalidValue(field: "value", reason: "a \(type) sample cannot hold this kind of value")
        }
    }

    /// One member of each member type (a blood pressure is one systolic and one
    /// diastolic value taken together), each valid, about this patient, at this time.
    private func validate(_ members: [HealthSample], of type: CorrelationType) throws(HealthError) {
        guard !members.isEmpty else { throw .invalidValue(field: "members", reason: "a correlation needs samples") }
        var seen: Set<QuantityType> = []
        for member in members {
            guard case .quantity(let memberType) = member.type, type.memberTypes.contains(memberType) else {
                throw .invalidValue(field: "members", reason: "\(member.type) does not belong in \(type.rawValue)")
            }
            guard seen.insert(memberType).inserted else {
                throw .invalidValue(field: "members", reason: "\(type.rawValue) holds two \(memberType.rawValue) samples")
            }
            guard member.patient == patient else {
                throw .invalidValue(field: "members", reason: "a member is about another patient")
            }
            guard member.start == start, member.end == end else {
                throw .invalidValue(field: "members", reason: "the \(memberType.rawValue) member is not at the time of the \(type.rawValue)")
            }
            try member.validate()
        }
        let missing = type.memberTypes.subtracting(seen)
        guard missing.isEmpty else {
            throw .invalidValue(field: "members", reason: "\(type.rawValue) lacks \(missing.map(\.rawValue).sorted().joined(separator: ", "))")
        }
    }
}
