/// What is wrong with a patient.
///
/// Encoded as one string: `outOfRange:heartRate`, `news2` or `noData`.
public enum AnomalyKind: Hashable, Sendable, Codable, CustomStringConvertible {
    /// A vital sign outside the patient's typical range (``Patient/typicalRange(of:)``).
    case outOfRange(QuantityType)
    /// A NEWS2 score at or above the reporting band.
    case news2
    /// No data from the patient for a while.
    case noData

    /// The encoded form, e.g. `outOfRange:heartRate`.
    public var description: String {
        switch self {
        case .outOfRange(let type): "outOfRange:\(type.rawValue)"
        case .news2: "news2"
        case .noData: "noData"
        }
    }

    /// The kind named `description`, e.g. `outOfRange:respiratoryRate`.
    public init?(_ description: String) {
        switch description {
        case "news2": self = .news2
        case "noData": self = .noData
        default:
            let prefix = "outOfRange:"
            guard description.hasPrefix(prefix), let type = QuantityType(rawValue: String(description.dropFirst(prefix.count))) else {
                return nil
            }
            self = .outOfRange(type)
        }
    }

    /// Encodes ``description``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// Decodes ``description``; anything else is an error.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let kind = AnomalyKind(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unknown anomaly kind '\(text)'"))
        }
        self = kind
    }
}
