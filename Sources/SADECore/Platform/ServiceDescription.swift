import SADEACL

/// A service an agent offers (fipa00023 `service-description`; iMobile's published
/// services).
public struct ServiceDescription: Hashable, Sendable, Codable {
    /// The service's name, e.g. `fix-network-issue`.
    public var name: String
    /// The kind of service, what searches usually match on, e.g. `network-support`.
    public var type: String
    /// Interaction protocols the service supports.
    public var protocols: [String]
    /// Ontologies the service understands.
    public var ontologies: [String]
    /// Content languages the service understands.
    public var languages: [String]
    /// Who owns the service.
    public var ownership: String?
    /// Further properties, e.g. `["sector": "ICU"]`.
    public var properties: [String: String]

    /// Creates a service description.
    public init(
        name: String, type: String, protocols: [String] = [], ontologies: [String] = [],
        languages: [String] = [], ownership: String? = nil, properties: [String: String] = [:]
    ) {
        self.name = name
        self.type = type
        self.protocols = protocols
        self.ontologies = ontologies
        self.languages = languages
        self.ownership = ownership
        self.properties = properties
    }
}

/// An agent's entry in the yellow pages: the agent and the services it offers
/// (fipa00023 `df-agent-description`).
public struct DirectoryEntry: Hashable, Sendable, Codable {
    /// The agent offering the services.
    public var agent: AgentIdentifier
    /// The services offered.
    public var services: [ServiceDescription]

    /// Creates an entry.
    public init(agent: AgentIdentifier, services: [ServiceDescription]) {
        self.agent = agent
        self.services = services
    }
}

/// What to look for in the yellow pages: every field that is set must match a
/// service; unset fields match anything.
public struct ServiceTemplate: Hashable, Sendable, Codable {
    /// The service's name, if it matters.
    public var name: String?
    /// The service's type, if it matters.
    public var type: String?
    /// A protocol the service must support.
    public var interactionProtocol: String?
    /// An ontology the service must understand.
    public var ontology: String?
    /// A language the service must understand.
    public var language: String?
    /// The service's owner, if it matters.
    public var ownership: String?
    /// Properties the service must have, with these values.
    public var properties: [String: String]

    /// Creates a template.
    public init(
        name: String? = nil, type: String? = nil, interactionProtocol: String? = nil, ontology: String? = nil,
        language: String? = nil, ownership: String? = nil, properties: [String: String] = [:]
    ) {
        self.name = name
        self.type = type
        self.interactionProtocol = interactionProtocol
        self.ontology = ontology
        self.language = language
        self.ownership = ownership
        self.properties = properties
    }

    /// Whether `service` matches every field set in the template.
    public func matches(_ service: ServiceDescription) -> Bool {
        if let name, service.name != name { return false }
        if let type, service.type != type { return false }
        if let interactionProtocol, !service.protocols.contains(interactionProtocol) { return false }
        if let ontology, !service.ontologies.contains(ontology) { return false }
        if let language, !service.languages.contains(language) { return false }
        if let ownership, service.ownership != ownership { return false }
        return properties.allSatisfy { service.properties[$0.key] == $0.value }
    }
}
