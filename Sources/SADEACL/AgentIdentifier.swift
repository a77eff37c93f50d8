/// The identity of an agent: a globally unique name plus the transport addresses
/// where it can be reached and the name resolvers that know it (fipa00023
/// `agent-identifier`).
///
/// Names follow the FIPA convention `local-name@platform`. An identifier without a
/// platform part (`"Fireman"`) refers to an agent on the sender's own platform.
public struct AgentIdentifier: Hashable, Codable, Sendable {
    /// The agent's name, `local-name` or `local-name@platform`.
    public var name: String
    /// Transport addresses in order of preference, e.g. `tcp://10.0.0.5:7000`.
    public var addresses: [String]
    /// Name-resolution services (agents such as an AMS) that can give this agent's
    /// current addresses, in order of preference.
    public var resolvers: [AgentIdentifier]

    /// Creates an identifier from a name and optional transport addresses and resolvers.
    public init(name: String, addresses: [String] = [], resolvers: [AgentIdentifier] = []) {
        self.name = name
        self.addresses = addresses
        self.resolvers = resolvers
    }

    /// The part of the name before `@`: the agent's name on its platform.
    public var localName: Substring {
        guard let at = atSign else { return name[...] }
        return name[..<at]
    }

    /// The part of the name after `@`, or `nil` when the name is local only.
    public var platform: Substring? {
        guard let at = atSign else { return nil }
        return name[name.utf8.index(after: at)...]
    }

    /// Where the first `@` is. Searched in the UTF-8 bytes: every delivery asks, and
    /// searching by `Character` (grapheme breaking) was a tenth of a message's cost.
    private var atSign: String.Index? {
        name.utf8.firstIndex(of: UInt8(ascii: "@"))
    }

    private enum CodingKeys: String, CodingKey { case name, addresses, resolvers }

    /// Decodes an identifier; `addresses` and `resolvers` may be omitted.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.name = try container.decode(String.self, forKey: .name)
        self.addresses = try container.decodeIfPresent([String].self, forKey: .addresses) ?? []
        self.resolvers = try container.decodeIfPresent([AgentIdentifier].self, forKey: .resolvers) ?? []
    }

    /// Encodes the identifier; empty `addresses` and `resolvers` are left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        if !addresses.isEmpty { try container.encode(addresses, forKey: .addresses) }
        if !resolvers.isEmpty { try container.encode(resolvers, forKey: .resolvers) }
    }
}

extension AgentIdentifier: ExpressibleByStringLiteral {
    /// Lets `"Fireman"` stand for `AgentIdentifier(name: "Fireman")`.
    public init(stringLiteral name: String) {
        self.init(name: name)
    }
}

extension AgentIdentifier: CustomStringConvertible {
    /// The agent's name.
    public var description: String { name }
}
