import SADEACL

/// The `fipa-agent-management` ontology (fipa00023) in FIPA-SL expressions: agent
/// identifiers, service and agent descriptions, and the actions on them.
public enum AgentManagementOntology {
    /// The ontology's name, the `:ontology` of every request to the AMS or DF.
    public static let name = "fipa-agent-management"
    /// The content language used in requests and answers.
    public static let language = "fipa-sl0"

    /// Why an expression is not a valid term of the ontology.
    public struct TermError: Error, Hashable, Sendable, CustomStringConvertible {
        /// What is wrong, naming the term.
        public let reason: String
        /// The reason.
        public var description: String { reason }
    }

    // MARK: Agent identifiers

    /// Reads an `agent-identifier` expression.
    public static func agentIdentifier(from expression: ACLExpression) throws(TermError) -> AgentIdentifier {
        guard let agent = AgentIdentifier(expression: expression) else {
            throw TermError(reason: "expected (agent-identifier :name … [:addresses (sequence …)]), found \(expression)")
        }
        return agent
    }

    // MARK: Service descriptions

    /// `(service-description :name … :type … :protocols (set …) … :properties (set (property :name k :value v)))`.
    public static func expression(for service: ServiceDescription) -> ACLExpression {
        var items: [ACLExpression] = [.word("service-description"), .word(":name"), .atom(service.name), .word(":type"), .atom(service.type)]
        for (keyword, values) in [(":protocols", service.protocols), (":ontologies", service.ontologies), (":languages", service.languages)]
        where !values.isEmpty {
            items += [.word(keyword), .list([.word("set")] + values.map(ACLExpression.atom))]
        }
        if let ownership = service.ownership { items += [.word(":ownership"), .atom(ownership)] }
        if !service.properties.isEmpty {
            let properties = service.properties.sorted { $0.key < $1.key }.map { key, value in
                ACLExpression.list([.word("property"), .word(":name"), .atom(key), .word(":value"), .atom(value)])
            }
            items += [.word(":properties"), .list([.word("set")] + properties)]
        }
        return .list(items)
    }

    /// A search template as a `service-description` with only the fields that are set.
    public static func expression(for template: ServiceTemplate) -> ACLExpression {
        var items: [ACLExpression] = [.word("service-description")]
        for (keyword, value) in [(":name", template.name), (":type", template.type), (":ownership", template.ownership)] {
            if let value { items += [.word(keyword), .atom(value)] }
        }
        for (keyword, value) in [(":protocols", template.interactionProtocol), (":ontologies", template.ontology), (":languages", template.language)] {
            if let value { items += [.word(keyword), .list([.word("set"), .atom(value)])] }
        }
        if !template.properties.isEmpty {
            let properties = template.properties.sorted { $0.key < $1.key }.map { key, value in
                ACLExpression.list([.word("property"), .word(":name"), .atom(key), .word(":value"), .atom(value)])
            }
            items += [.word(":properties"), .list([.word("set")] + properties)]
        }
        return .list(items)
    }

    /// Reads a `service-description`; every slot but `:name` and `:type` may be missing.
    public static func serviceDescription(from expression: ACLExpression) throws(TermError) -> ServiceDescription {
        let template = try serviceTemplate(from: expression)
        guard let name = template.name, let type = template.type else {
            throw TermError(reason: "service-description needs :name and :type")
        }
        let frame = try Frame(expression, named: "service-description")
        return ServiceDescription(
            name: name, type: type, protocols: try frame.collection(":protocols").map(textOf),
            ontologies: try frame.collection(":ontologies").map(textOf), languages: try frame.collection(":languages").map(textOf),
            ownership: template.ownership, properties: template.properties)
    }

    /// Reads a `service-description` used as a search template: missing slots match anything.
    public static func serviceTemplate(from expression: ACLExpression) throws(TermError) -> ServiceTemplate {
        let frame = try Frame(expression, named: "service-description")
        var properties: [String: String] = [:]
        for property in try frame.collection(":properties") {
            let slots = try Frame(property, named: "property")
            guard let key = slots.text(":name"), let value = slots.text(":value") else {
                throw TermError(reason: "property needs :name and :value")
            }
            properties[key] = value
        }
        return ServiceTemplate(
            name: frame.text(":name"), type: frame.text(":type"),
            interactionProtocol: try frame.collection(":protocols").first.map(textOf),
            ontology: try frame.collection(":ontologies").first.map(textOf),
            language: try frame.collection(":languages").first.map(textOf),
            ownership: frame.text(":ownership"), properties: properties)
    }

    // MARK: Agent descriptions

    /// `(df-agent-description :name (agent-identifier …) :services (set …))`.
    public static func expression(for entry: DirectoryEntry) -> ACLExpression {
        .list([
            .word("df-agent-description"), .word(":name"), ACLExpression(entry.agent),
            .word(":services"), .list([.word("set")] + entry.services.map { expression(for: $0) }),
        ])
    }

    /// Reads a `df-agent-description` with its agent and services.
    public static func directoryEntry(from expression: ACLExpression) throws(TermError) -> DirectoryEntry {
        let frame = try Frame(expression, named: "df-agent-description")
        guard let agent = frame.slot(":name") else { throw TermError(reason: "df-agent-description without :name") }
        var services: [ServiceDescription] = []
        for service in try frame.collection(":services") { services.append(try serviceDescription(from: service)) }
        return DirectoryEntry(agent: try agentIdentifier(from: agent), services: services)
    }

    /// `(ams-agent-description :name (agent-identifier …) :state active)`.
    public static func expression(for description: AMSAgentDescription) -> ACLExpression {
        .list([.word("ams-agent-description"), .word(":name"), ACLExpression(description.identifier),
               .word(":state"), .word("\(description.state)")])
    }

    // MARK: Helpers

    /// The text of a word, string or number.
    static func textOf(_ expression: ACLExpression) throws(TermError) -> String {
        guard let text = expression.text else { throw TermError(reason: "expected a word or string, found \(expression)") }
        return text
    }

    /// A list `(head :slot value …)` read as its slots.
    struct Frame {
        let slots: [String: ACLExpression]

        init(_ expression: ACLExpression, named head: String) throws(TermError) {
            guard case .list(let items) = expression, case .word(let word)? = items.first, word.lowercased() == head else {
                throw TermError(reason: "expected (\(head) …), found \(expression)")
            }
            var slots: [String: ACLExpression] = [:]
            var index = 1
            while index < items.count {
                guard case .word(let keyword) = items[index], keyword.hasPrefix(":"), index + 1 < items.count else {
                    throw TermError(reason: "\(head): expected ':slot value' pairs, found \(items[index])")
                }
                slots[keyword.lowercased()] = items[index + 1]
                index += 2
            }
            self.slots = slots
        }

        func slot(_ keyword: String) -> ACLExpression? { slots[keyword] }

        func text(_ keyword: String) -> String? { slots[keyword].flatMap { try? textOf($0) } }

        /// The members of a `(set …)` or `(sequence …)` slot; empty when the slot is missing.
        func collection(_ keyword: String) throws(TermError) -> [ACLExpression] {
            guard let value = slots[keyword] else { return [] }
            guard case .list(let items) = value, case .word(let head)? = items.first,
                ["set", "sequence"].contains(head.lowercased())
            else { throw TermError(reason: "\(keyword) must be a (set …) or (sequence …)") }
            return Array(items.dropFirst())
        }
    }
}
