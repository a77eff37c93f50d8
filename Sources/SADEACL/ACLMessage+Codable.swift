import Foundation

/// JSON form of a message: one object whose keys are the FIPA parameter names
/// (`performative`, `sender`, `receiver`, `reply-to`, `conversation-id`, …), with
/// user-defined `X-` parameters as keys of their own and `reply-by` as ISO 8601 text.
extension ACLMessage: Codable {
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }

        static let performative = Key("performative")
        static let sender = Key("sender")
        static let receiver = Key("receiver")
        static let replyTo = Key("reply-to")
        static let content = Key("content")
        static let language = Key("language")
        static let encoding = Key("encoding")
        static let ontology = Key("ontology")
        static let interactionProtocol = Key("protocol")
        static let conversationID = Key("conversation-id")
        static let replyWith = Key("reply-with")
        static let inReplyTo = Key("in-reply-to")
        static let replyBy = Key("reply-by")
    }

    /// Decodes a message from its JSON object form. Unknown keys that do not start
    /// with `X-` are rejected so that typos do not silently lose parameters.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        self.init(try c.decode(Performative.self, forKey: .performative))
        sender = try c.decodeIfPresent(AgentIdentifier.self, forKey: .sender)
        receivers = try c.decodeIfPresent([AgentIdentifier].self, forKey: .receiver) ?? []
        replyTo = try c.decodeIfPresent([AgentIdentifier].self, forKey: .replyTo) ?? []
        content = try c.decodeIfPresent(String.self, forKey: .content)
        language = try c.decodeIfPresent(String.self, forKey: .language)
        encoding = try c.decodeIfPresent(String.self, forKey: .encoding)
        ontology = try c.decodeIfPresent(String.self, forKey: .ontology)
        interactionProtocol = try c.decodeIfPresent(String.self, forKey: .interactionProtocol)
        conversationID = try c.decodeIfPresent(String.self, forKey: .conversationID)
        replyWith = try c.decodeIfPresent(String.self, forKey: .replyWith)
        inReplyTo = try c.decodeIfPresent(String.self, forKey: .inReplyTo)
        if let text = try c.decodeIfPresent(String.self, forKey: .replyBy) {
            guard let timestamp = Timestamp(iso8601: text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .replyBy, in: c,
                    debugDescription: "reply-by is not a UTC date-time like 2026-11-18T11:06:40.250Z: \(text)")
            }
            replyBy = timestamp.date
        } else {
            replyBy = nil
        }
        var userDefined: [String: String] = [:]
        for key in c.allKeys where !Self.standardKeys.contains(key.stringValue) {
            guard Self.isUserDefined(key.stringValue) else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: c,
                    debugDescription: "unknown ACL parameter '\(key.stringValue)'; user-defined parameters start with X-")
            }
            userDefined[key.stringValue] = try c.decode(String.self, forKey: key)
        }
        self.userDefined = userDefined
    }

    /// Encodes the message as one JSON object; absent parameters are left out.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(performative, forKey: .performative)
        try c.encodeIfPresent(sender, forKey: .sender)
        if !receivers.isEmpty { try c.encode(receivers, forKey: .receiver) }
        if !replyTo.isEmpty { try c.encode(replyTo, forKey: .replyTo) }
        try c.encodeIfPresent(content, forKey: .content)
        try c.encodeIfPresent(language, forKey: .language)
        try c.encodeIfPresent(encoding, forKey: .encoding)
        try c.encodeIfPresent(ontology, forKey: .ontology)
        try c.encodeIfPresent(interactionProtocol, forKey: .interactionProtocol)
        try c.encodeIfPresent(conversationID, forKey: .conversationID)
        try c.encodeIfPresent(replyWith, forKey: .replyWith)
        try c.encodeIfPresent(inReplyTo, forKey: .inReplyTo)
        try c.encodeIfPresent(replyBy.map { Timestamp($0).iso8601 }, forKey: .replyBy)
        for (name, value) in userDefined.sorted(by: { $0.key < $1.key }) {
            guard Self.isUserDefined(name) else {
                throw EncodingError.invalidValue(
                    name, EncodingError.Context(
                        codingPath: encoder.codingPath,
                        debugDescription: "user-defined parameter '\(name)' must start with X-"))
            }
            try c.encode(value, forKey: Key(name))
        }
    }

    private static let standardKeys: Set<String> = [
        "performative", "sender", "receiver", "reply-to", "content", "language", "encoding",
        "ontology", "protocol", "conversation-id", "reply-with", "in-reply-to", "reply-by",
    ]

    /// Whether `name` is a user-defined parameter name: `X-` (or `x-`) and more.
    static func isUserDefined(_ name: String) -> Bool {
        name.count > 2 && (name.hasPrefix("X-") || name.hasPrefix("x-"))
    }
}
