/// Identifies a patient, the subject of every sample.
///
/// A usable identifier is 1 to ``maximumLength`` bytes of UTF-8 text without control
/// characters (U+0000–U+001F, U+007F); ``validate(field:)`` checks it, and every store
/// operation, ``HealthSample/validate()`` and the FHIR importer refuse any other.
/// The rule matters for more than tidiness: SQLite reads bound text up to the first
/// NUL, so `"p-1\u{0}x"` would reach the rows of `p-1`.
public struct PatientID: RawRepresentable, Hashable, Comparable, Sendable, Codable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The identifier's text.
    public let rawValue: String

    /// The longest identifier accepted, in UTF-8 bytes.
    public static let maximumLength = 256

    /// Wraps `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Wraps `rawValue`.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// Lets `"p-1"` stand for a patient identifier.
    public init(stringLiteral value: String) { rawValue = value }

    /// The text.
    public var description: String { rawValue }
    public static func < (lhs: PatientID, rhs: PatientID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Throws unless the identifier is usable: not empty, at most ``maximumLength``
    /// bytes, no control characters.
    ///
    /// - Parameter field: the field named in the error, e.g. `patient` or `id`.
    /// - Throws: ``HealthError/invalidValue(field:reason:)``.
    public func validate(field: String = "patient") throws(HealthError) {
        guard !rawValue.isEmpty else { throw .invalidValue(field: field, reason: "is empty") }
        guard rawValue.utf8.count <= Self.maximumLength else {
            throw .invalidValue(field: field, reason: "is longer than \(Self.maximumLength) bytes")
        }
        if let problem = HealthText.controlCharacter(in: rawValue) {
            throw .invalidValue(field: field, reason: "\(rawValue.debugDescription) contains \(problem)")
        }
    }

    /// Encodes the text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// Decodes the text.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }
}
