extension HealthSample {
    /// Checks that the sample could be real: the value matches the type, lies in the
    /// type's possible range and has a unit of the right dimension; the interval does
    /// not end before it starts; correlation members belong to it.
    ///
    /// - Throws: ``HealthError/invalidValue(field:reason:)`` naming the field, or
    ///   ``HealthError/incompatibleUnits(from:to:)``.
    public func validate() throws(HealthError) {
        guard end >= start else { throw .invalidValue(field: "end", reason: "ends before it starts") }
        guard !patient.rawValue.isEmpty else { throw .invalidValue(field: "patient", reason: "is empty") }
        switch (type, value) {
        case (.quantity(let type), .quantity(let quantity)):
            guard quantity.value.isFinite else { throw .invalidValue(field: "value", reason: "is not a finite number") }
            let canonical = try quantity.value(in: type.canonicalUnit)
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
            guard !members.isEmpty else { throw .invalidValue(field: "members", reason: "a correlation needs samples") }
            for member in members {
                guard case .quantity(let memberType) = member.type, type.memberTypes.contains(memberType) else {
                    throw .invalidValue(field: "members", reason: "\(member.type) does not belong in \(type.rawValue)")
                }
                guard member.patient == patient else {
                    throw .invalidValue(field: "members", reason: "a member is about another patient")
                }
                try member.validate()
            }
        case (.electrocardiogram, .electrocardiogram(let ecg)):
            guard ecg.samplingFrequency > 0, ecg.samplingFrequency.isFinite else {
                throw .invalidValue(field: "samplingFrequency", reason: "must be a positive number of hertz")
            }
            guard ecg.unit.dimension == .voltage else { throw .incompatibleUnits(from: ecg.unit.symbol, to: "V") }
            guard ecg.voltages.allSatisfy(\.isFinite) else { throw .invalidValue(field: "voltages", reason: "must be finite numbers") }
        default:
            throw .invalidValue(field: "value", reason: "a \(type) sample cannot hold this kind of value")
        }
    }
}
