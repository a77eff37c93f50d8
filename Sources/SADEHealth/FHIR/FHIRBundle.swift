/// A FHIR R4 `Bundle`: a collection of resources, each entry named by a `fullUrl`
/// (SADE uses `urn:uuid:…`) so that resources refer to each other inside it.
public struct FHIRBundle: Codable, Hashable, Sendable {
    /// Always `Bundle`.
    public var resourceType = "Bundle"
    /// The bundle's id, if any.
    public var id: String?
    /// `collection` for what SADE writes.
    public var type: String?
    /// When it was assembled (FHIR `instant`).
    public var timestamp: String?
    /// The resources.
    public var entry: [Entry]?

    /// One resource in the bundle.
    public struct Entry: Codable, Hashable, Sendable {
        /// The resource's URL, e.g. `urn:uuid:…`.
        public var fullUrl: String?
        /// The resource.
        public var resource: FHIRResource?

        /// Creates an entry.
        public init(fullUrl: String?, resource: FHIRResource?) {
            self.fullUrl = fullUrl
            self.resource = resource
        }
    }

    /// Creates a bundle of `type` `collection`.
    public init(id: String? = nil, timestamp: String? = nil, entry: [Entry]) {
        self.id = id
        self.type = "collection"
        self.timestamp = timestamp
        self.entry = entry
    }
}

/// A resource in a bundle: a patient, an observation, or any other kind (kept by its
/// type and id only, so an importer can say it is not expected).
public enum FHIRResource: Codable, Hashable, Sendable {
    case patient(FHIRPatient)
    case observation(FHIRObservation)
    /// A resource of another type.
    case other(resourceType: String, id: String?)

    private enum CodingKeys: String, CodingKey {
        case resourceType, id
    }

    /// Decodes by `resourceType`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .resourceType)
        switch type {
        case "Patient": self = .patient(try FHIRPatient(from: decoder))
        case "Observation": self = .observation(try FHIRObservation(from: decoder))
        default: self = .other(resourceType: type, id: try? container.decodeIfPresent(String.self, forKey: .id))
        }
    }

    /// Encodes the resource.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .patient(let patient): try patient.encode(to: encoder)
        case .observation(let observation): try observation.encode(to: encoder)
        case .other(let type, let id):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(type, forKey: .resourceType)
            try container.encodeIfPresent(id, forKey: .id)
        }
    }

    /// The resource's type, e.g. `Observation`.
    public var resourceType: String {
        switch self {
        case .patient: "Patient"
        case .observation: "Observation"
        case .other(let type, _): type
        }
    }

    /// The resource's id.
    public var id: String? {
        switch self {
        case .patient(let patient): patient.id
        case .observation(let observation): observation.id
        case .other(_, let id): id
        }
    }
}
