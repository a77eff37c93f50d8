/// Data FHIR has no element for (FHIR `Extension`): a URL saying what it is and a
/// value, or nested extensions for a complex one.
///
/// SADE's own extensions have URLs under ``FHIRExtension/sadeBase``; each is listed
/// with the resource that carries it.
public struct FHIRExtension: Codable, Hashable, Sendable {
    /// What the extension means; nested extensions use a short name such as `key`.
    public var url: String
    /// A text value.
    public var valueString: String?
    /// A code value.
    public var valueCode: String?
    /// A yes/no value.
    public var valueBoolean: Bool?
    /// A range value.
    public var valueRange: FHIRRange?
    /// The parts of a complex extension.
    public var `extension`: [FHIRExtension]?

    /// Creates an extension.
    public init(url: String, valueString: String? = nil, valueCode: String? = nil, valueBoolean: Bool? = nil,
                valueRange: FHIRRange? = nil, extension: [FHIRExtension]? = nil) {
        self.url = url
        self.valueString = valueString
        self.valueCode = valueCode
        self.valueBoolean = valueBoolean
        self.valueRange = valueRange
        self.extension = `extension`
    }

    /// The prefix of SADE's extension URLs.
    public static let sadeBase = "urn:sade:fhir:extension:"

    /// A key–value pair as a complex extension with parts `key` and `value`
    /// (sample metadata, patient attributes).
    static func pair(_ url: String, key: String, value: String) -> FHIRExtension {
        FHIRExtension(url: url, extension: [FHIRExtension(url: "key", valueString: key), FHIRExtension(url: "value", valueString: value)])
    }

    /// The part named `url` of a complex extension.
    func part(_ url: String) -> FHIRExtension? {
        self.extension?.first { $0.url == url }
    }
}

extension [FHIRExtension] {
    /// The extensions with URL `url`.
    func all(_ url: String) -> [FHIRExtension] { filter { $0.url == url } }
    /// The first extension with URL `url`.
    func first(_ url: String) -> FHIRExtension? { first { $0.url == url } }
}
