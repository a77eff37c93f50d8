/// Checks on text a store keeps: SQLite reads bound text up to the first NUL, so text
/// with one would be stored cut short, and an identifier with one would name another.
package enum HealthText {
    /// The first control character (U+0000–U+001F, U+007F) in `text`, described as
    /// `U+0000`; `nil` when there is none. For identifiers.
    package static func controlCharacter(in text: String) -> String? {
        text.unicodeScalars.first { $0.value < 0x20 || $0.value == 0x7F }.map(describe)
    }

    /// `U+0000` when `text` holds a NUL; `nil` otherwise. For free text (names,
    /// devices, metadata), where a line break or a tab is fine.
    package static func nul(in text: String) -> String? {
        text.unicodeScalars.contains("\u{0}") ? describe("\u{0}") : nil
    }

    /// Throws ``HealthError/invalidValue(field:reason:)`` naming `field` when `text`
    /// is not a usable identifier: empty, longer than ``PatientID/maximumLength``
    /// bytes or with a control character.
    package static func validateIdentifier(_ text: String, field: String) throws(HealthError) {
        try PatientID(text).validate(field: field)
    }

    /// Throws ``HealthError/invalidValue(field:reason:)`` naming `field` when `text` holds a NUL.
    package static func validateFreeText(_ text: String?, field: String) throws(HealthError) {
        guard let text, let problem = nul(in: text) else { return }
        throw .invalidValue(field: field, reason: "contains \(problem)")
    }

    private static func describe(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "the control character U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
