/// An XML element of an XMPP stream: a stanza or a part of one, with its namespace
/// resolved (RFC 6120 §4.8).
public struct XMPPElement: Hashable, Sendable, CustomStringConvertible {
    /// A child: an element or character data.
    public enum Node: Hashable, Sendable {
        case element(XMPPElement)
        case text(String)
    }

    /// The local name, e.g. `message`.
    public var name: String
    /// The namespace, e.g. `jabber:client`.
    public var namespace: String
    /// The attributes other than namespace declarations, by qualified name (`type`, `xml:lang`).
    public var attributes: [String: String]
    /// The children, in order.
    public var children: [Node]

    /// Creates an element.
    public init(_ name: String, namespace: String, attributes: [String: String] = [:], children: [Node] = []) {
        self.name = name
        self.namespace = namespace
        self.attributes = attributes
        self.children = children
    }

    /// Creates an element whose only child is `text`.
    public init(_ name: String, namespace: String, attributes: [String: String] = [:], text: String) {
        self.init(name, namespace: namespace, attributes: attributes, children: [.text(text)])
    }

    /// The value of attribute `name`.
    public subscript(attribute name: String) -> String? {
        get { attributes[name] }
        set { attributes[name] = newValue }
    }

    /// The child elements.
    public var elements: [XMPPElement] {
        children.compactMap { if case .element(let element) = $0 { element } else { nil } }
    }

    /// The first child element called `name` (in `namespace`, or in any when `nil`).
    public func child(_ name: String, namespace: String? = nil) -> XMPPElement? {
        elements.first { $0.name == name && (namespace == nil || $0.namespace == namespace) }
    }

    /// Every child element called `name` (in `namespace`, or in any when `nil`).
    public func children(_ name: String, namespace: String? = nil) -> [XMPPElement] {
        elements.filter { $0.name == name && (namespace == nil || $0.namespace == namespace) }
    }

    /// The character data directly inside the element.
    public var text: String {
        children.reduce(into: "") { text, node in
            if case .text(let part) = node { text += part }
        }
    }

    /// Appends a child element.
    public mutating func append(_ element: XMPPElement) {
        children.append(.element(element))
    }

    /// The element as XML text, declaring its namespace where it differs from `parentNamespace`.
    public func xml(parentNamespace: String? = nil) -> String {
        var out = "<\(name)"
        if namespace != parentNamespace { out += " xmlns=\"\(Self.escape(namespace, quotes: true))\"" }
        for (key, value) in attributes.sorted(by: { $0.key < $1.key }) {
            out += " \(key)=\"\(Self.escape(value, quotes: true))\""
        }
        guard !children.isEmpty else { return out + "/>" }
        out += ">"
        for child in children {
            switch child {
            case .element(let element): out += element.xml(parentNamespace: namespace)
            case .text(let text): out += Self.escape(text, quotes: false)
            }
        }
        return out + "</\(name)>"
    }

    /// The element as XML text in a stream whose default namespace is `jabber:client`.
    public var description: String { xml(parentNamespace: "jabber:client") }

    /// `text` with `&`, `<`, `>` (and, in attributes, quotes) escaped; characters XML
    /// cannot carry at all (control characters other than tab, line feed and carriage
    /// return) replaced by U+FFFD.
    public static func escape(_ text: String, quotes: Bool) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where quotes: out += "&quot;"
            case "'" where quotes: out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                let value = scalar.value
                if value < 0x20 || value == 0xFFFE || value == 0xFFFF {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
