/// Identifies a patient, the subject of every sample.
public struct PatientID: RawRepresentable, Hashable, Comparable, Sendable, Codable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The identifier's text.
    public let rawValue: String

    /// Wraps `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Wraps `rawValue`.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// Lets `"p-1"` stand for a patient identifier.
    public init(stringLiteral value: String) { rawValue = value }

    /// The text.
    public var description: String { rawValue }
    public static func < (lhs: PatientID, rhs: PatientID) -> Bool { lhs.rawValue < rhs.rawValue }

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
