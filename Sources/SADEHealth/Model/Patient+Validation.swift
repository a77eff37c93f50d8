import Foundation

extension Patient {
    /// Checks that the record can be stored and exchanged as it is: a usable
    /// identifier (``PatientID/validate(field:)``), a date of birth (if known) in
    /// ``HealthSample/possibleDates``, a sector (if any) that is a usable identifier,
    /// and no NUL in the name, bed or attributes (SQLite would keep the text cut short).
    ///
    /// - Throws: ``HealthError/invalidValue(field:reason:)`` naming the field.
    public func validate() throws(HealthError) {
        try id.validate(field: "id")
        if let dateOfBirth, !HealthSample.possibleDates.contains(dateOfBirth) {
            throw .invalidValue(field: "dateOfBirth", reason: "is not a date in the years 0001–9999")
        }
        if let sector { try HealthText.validateIdentifier(sector, field: "sector") }
        try HealthText.validateFreeText(name, field: "name")
        try HealthText.validateFreeText(bed, field: "bed")
        for (key, value) in attributes {
            try HealthText.validateFreeText(key, field: "attributes")
            try HealthText.validateFreeText(value, field: "attributes")
        }
    }
}
