/// A generic s-expression in the FIPA string syntax: what a content language such as
/// FIPA-SL is written in, e.g. the agent-management content of fipa00023:
/// `((action (agent-identifier :name df@p) (register (df-agent-description :name …))))`.
///
/// Parse one with ``init(parsing:limits:)``, read it with the accessors (``elements``,
/// ``head``, ``parameter(_:)``), and print it back with ``description``; for every
/// parsed expression `e`, parsing `e.description` gives `e` again.
public indirect enum ACLExpression: Hashable, Sendable {
    /// A symbol: `register`, `df@p`, `tcp://h:1`, keywords such as `:name` (colon
    /// included), and date-times such as `20001205T083000000Z`.
    case word(String)
    /// A quoted or byte-length string, with escapes undone.
    case string(String)
    /// A number, its text kept as written: `12`, `-3.5e2`, `0x1F`.
    case number(String)
    /// A parenthesised list of expressions.
    case list([ACLExpression])
}

extension ACLExpression {
    /// The elements of a list; `nil` for anything else.
    public var elements: [ACLExpression]? {
        if case .list(let elements) = self { return elements }
        return nil
    }

    /// The text of a word; `nil` for anything else.
    public var word: String? {
        if case .word(let text) = self { return text }
        return nil
    }

    /// The text of a word, string or number; `nil` for a list. Reads a name whether it
    /// was written bare (`a@p`) or quoted (`"a@p"`).
    public var text: String? {
        switch self {
        case .word(let text), .string(let text), .number(let text): text
        case .list: nil
        }
    }

    /// The first element of a list when it is a word, e.g. `agent-identifier` or `action`.
    public var head: String? { elements?.first?.word }

    /// The elements of a list after its head: the arguments of `(register x)`.
    public var arguments: ArraySlice<ACLExpression> { elements?.dropFirst() ?? [] }

    /// The value after the keyword `name` in a list such as
    /// `(agent-identifier :name a@p :addresses (sequence …))`; `name` may be given with
    /// or without its colon. `nil` when this is not a list or has no such keyword.
    public func parameter(_ name: String) -> ACLExpression? {
        guard let elements else { return nil }
        let keyword = name.hasPrefix(":") ? name : ":" + name
        for index in elements.indices.dropLast() where elements[index] == .word(keyword) {
            return elements[index + 1]
        }
        return nil
    }
}

extension ACLExpression {
    /// `(agent-identifier :name n [:addresses (sequence …)] [:resolvers (sequence …)])`.
    public init(_ agent: AgentIdentifier) {
        var elements: [ACLExpression] = [.word("agent-identifier"), .word(":name"), .atom(agent.name)]
        if !agent.addresses.isEmpty {
            elements += [.word(":addresses"), .list([.word("sequence")] + agent.addresses.map(Self.atom))]
        }
        if !agent.resolvers.isEmpty {
            elements += [.word(":resolvers"), .list([.word("sequence")] + agent.resolvers.map(ACLExpression.init))]
        }
        self = .list(elements)
    }

    /// `text` as a word when it prints as a bare word, else as a string.
    public static func atom(_ text: String) -> ACLExpression {
        var text = text
        return text.withUTF8(ACLSyntax.isBareWord) ? .word(text) : .string(text)
    }
}

extension AgentIdentifier {
    /// Reads an `(agent-identifier :name … [:addresses (sequence …)] [:resolvers (sequence …)])`
    /// expression; `nil` when it is not one.
    public init?(expression: ACLExpression) {
        guard let head = expression.head, head.lowercased() == "agent-identifier",
            let name = expression.parameter(":name")?.text
        else { return nil }
        var addresses: [String] = []
        if let sequence = expression.parameter(":addresses") {
            guard sequence.head == "sequence" else { return nil }
            for address in sequence.arguments {
                guard let text = address.text else { return nil }
                addresses.append(text)
            }
        }
        var resolvers: [AgentIdentifier] = []
        if let sequence = expression.parameter(":resolvers") {
            guard sequence.head == "sequence" else { return nil }
            for resolver in sequence.arguments {
                guard let agent = AgentIdentifier(expression: resolver) else { return nil }
                resolvers.append(agent)
            }
        }
        self.init(name: name, addresses: addresses, resolvers: resolvers)
    }
}
