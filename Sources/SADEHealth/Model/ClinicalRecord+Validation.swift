// The checks every backend makes before storing a record of the clinical registry or
// a grant, so that both refuse the same things with the same errors.

extension Hospital {
    /// - Throws: ``HealthError/invalidValue(field:reason:)`` naming the field.
    package func validate() throws(HealthError) {
        guard !id.isEmpty else { throw .invalidValue(field: "id", reason: "a hospital needs an identifier") }
        try HealthText.validateIdentifier(id, field: "id")
        try HealthText.validateFreeText(name, field: "name")
        try HealthText.validateFreeText(address, field: "address")
    }
}

extension HospitalSector {
    /// - Throws: ``HealthError/invalidValue(field:reason:)`` naming the field.
    package func validate() throws(HealthError) {
        guard !id.isEmpty else { throw .invalidValue(field: "id", reason: "a sector needs an identifier") }
        try HealthText.validateIdentifier(id, field: "id")
        try HealthText.validateIdentifier(hospital, field: "hospital")
        try HealthText.validateFreeText(name, field: "name")
        for address in mailingList { try HealthText.validateFreeText(address, field: "mailingList") }
    }
}

extension HealthCareWorker {
    /// - Throws: ``HealthError/invalidValue(field:reason:)`` naming the field.
    package func validate() throws(HealthError) {
        guard !id.isEmpty else { throw .invalidValue(field: "id", reason: "a worker needs an identifier") }
        try HealthText.validateIdentifier(id, field: "id")
        for sector in sectors { try HealthText.validateIdentifier(sector, field: "sectors") }
        for (field, text) in [("name", name), ("licence", licence), ("email", email), ("phone", phone)] {
            try HealthText.validateFreeText(text, field: field)
        }
    }
}

extension AccessGrant {
    /// - Throws: ``HealthError/invalidValue(field:reason:)`` naming `principal` for a
    ///   name that is empty or holds a control character, or `patient` for an unusable identifier.
    package func validate() throws(HealthError) {
        guard !principal.name.isEmpty else { throw .invalidValue(field: "principal", reason: "has no name") }
        try HealthText.validateIdentifier(principal.name, field: "principal")
        for patient in patients ?? [] {
            try patient.validate()
        }
    }
}
