/// Why an XMPP stream's XML was refused; each maps to the stream error the other side
/// is sent before the stream is closed (RFC 6120 §4.9.3).
public enum XMLStreamError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Not well-formed XML: a tag not closed, an end tag that does not match, bad UTF-8 …
    case notWellFormed(String)
    /// XML that XMPP forbids (RFC 6120 §11.1): comments, processing instructions, a
    /// DTD (and so entity definitions: no billion laughs), entity references other
    /// than the five predefined ones.
    case restrictedXML(String)
    /// A stanza over the size limit, or nested deeper than the limit.
    case policyViolation(String)

    /// The stream error condition to send (`<not-well-formed/>` …).
    public var condition: String {
        switch self {
        case .notWellFormed: "not-well-formed"
        case .restrictedXML: "restricted-xml"
        case .policyViolation: "policy-violation"
        }
    }

    /// A sentence saying what was wrong.
    public var description: String {
        switch self {
        case .notWellFormed(let why): "XML not well-formed: \(why)"
        case .restrictedXML(let why): "XML that XMPP does not allow: \(why)"
        case .policyViolation(let why): "stanza refused: \(why)"
        }
    }
}

/// An incremental parser of an XMPP stream (RFC 6120 §4): bytes go in as they arrive,
/// the stream header and each complete top-level element (stanza, features, SASL …)
/// come out. Restricted XML only (§11.1), with limits on a stanza's size and depth.
public struct XMLStreamParser: Sendable {
    /// What the parser found.
    public enum Event: Hashable, Sendable {
        /// The `<stream:stream …>` header, as an element without children.
        case streamOpened(XMPPStreamHeader)
        /// A complete top-level element.
        case element(XMPPElement)
        /// `</stream:stream>`.
        case streamClosed
    }

    /// The limits the parser enforces.
    public struct Limits: Hashable, Sendable {
        /// The largest top-level element, in bytes of XML.
        public var maxStanzaBytes: Int
        /// The deepest nesting inside a stanza.
        public var maxDepth: Int
        /// The most attributes on one element.
        public var maxAttributes: Int

        public init(maxStanzaBytes: Int = 256 * 1024, maxDepth: Int = 32, maxAttributes: Int = 64) {
            self.maxStanzaBytes = maxStanzaBytes
            self.maxDepth = maxDepth
            self.maxAttributes = maxAttributes
        }
    }

    /// The streams namespace.
    public static let streamsNamespace = "http://etherx.jabber.org/streams"

    private let limits: Limits
    private var buffer: [UInt8] = []
    private var position = 0
    /// Open elements: index 0 is the stream; each with the namespaces in scope.
    private var open: [(element: XMPPElement, qualifiedName: String, scope: [String: String])] = []
    private var streamEnded = false
    private var seenAnything = false
    /// Bytes of the top-level element being read.
    private var stanzaBytes = 0

    /// Creates a parser.
    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Starts again for a new stream (after STARTTLS or SASL, RFC 6120 §5.4.3.3 and §6.4.6).
    public mutating func reset() {
        self = XMLStreamParser(limits: limits)
    }

    /// Reads `bytes`; returns what they completed. After an error the stream is over.
    public mutating func feed(_ bytes: some Collection<UInt8>) throws(XMLStreamError) -> [Event] {
        buffer.append(contentsOf: bytes)
        var events: [Event] = []
        while position < buffer.count, !streamEnded {
            if buffer[position] == UInt8(ascii: "<") {
                guard let tag = try nextTag() else { break }
                if let event = try handle(tag) { events.append(event) }
            } else {
                guard let end = buffer[position...].firstIndex(of: UInt8(ascii: "<")) else {
                    if open.count <= 1 { try handleText(buffer[position...]) }  // between stanzas: only white space, checked at once
                    if open.count <= 1 { position = buffer.count }
                    break
                }
                try handleText(buffer[position..<end])
                position = end
            }
        }
        if position > 0, position >= buffer.count / 2 {
            buffer.removeSubrange(0..<position)
            position = 0
        }
        if open.count > 1, stanzaBytes + (buffer.count - position) > limits.maxStanzaBytes {
            throw .policyViolation("a stanza over \(limits.maxStanzaBytes) bytes")
        }
        if open.count <= 1, buffer.count - position > limits.maxStanzaBytes {
            throw .policyViolation("a tag over \(limits.maxStanzaBytes) bytes")
        }
        return events
    }

    // MARK: Tags

    private enum Tag {
        case start(name: String, attributes: [(String, String)], selfClosing: Bool)
        case end(name: String)
        case characterData(String)
        case declaration
    }

    /// The tag at `position` if complete (moving past it), `nil` if more bytes are needed.
    private mutating func nextTag() throws(XMLStreamError) -> Tag? {
        let start = position + 1
        guard start < buffer.count else { return nil }
        switch buffer[start] {
        case UInt8(ascii: "!"):
            let cdata = Array("![CDATA[".utf8)
            let available = buffer[start..<min(buffer.count, start + cdata.count)]
            guard available.elementsEqual(cdata.prefix(available.count)) else {
                let what = buffer[start...].starts(with: Array("!--".utf8)) ? "a comment" : "a DTD or markup declaration"
                throw .restrictedXML("\(what) in the stream")
            }
            guard available.count == cdata.count else { return nil }
            guard let end = find(Array("]]>".utf8), from: start + cdata.count) else { return nil }
            let text = try utf8(buffer[(start + cdata.count)..<end])
            consume(upTo: end + 3)
            return .characterData(text)
        case UInt8(ascii: "?"):
            guard let end = find(Array("?>".utf8), from: start) else { return nil }
            let isDeclaration = !seenAnything && buffer[start...].starts(with: Array("?xml ".utf8))
            guard isDeclaration else { throw .restrictedXML("a processing instruction in the stream") }
            consume(upTo: end + 2)
            return .declaration
        default:
            guard let end = tagEnd(from: start) else { return nil }
            let inner = buffer[start..<end]
            consume(upTo: end + 1)
            return try parseTag(inner)
        }
    }

    /// The index of the `>` ending the tag that starts at `start`, outside quotes.
    private func tagEnd(from start: Int) -> Int? {
        var quote: UInt8?
        var index = start
        while index < buffer.count {
            let byte = buffer[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                return index
            }
            index += 1
        }
        return nil
    }

    private func find(_ needle: [UInt8], from start: Int) -> Int? {
        guard buffer.count >= needle.count else { return nil }
        var index = start
        while index + needle.count <= buffer.count {
            if buffer[index] == needle[0], buffer[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    private mutating func consume(upTo end: Int) {
        if open.count > 1 { stanzaBytes += end - position }
        position = end
        seenAnything = true
    }

    private func parseTag(_ bytes: ArraySlice<UInt8>) throws(XMLStreamError) -> Tag {
        let text = try utf8(bytes)
        if text.hasPrefix("/") {
            let name = text.dropFirst().trimmingWhitespace()
            guard Self.isName(name) else { throw .notWellFormed("a bad end tag </\(text.prefix(40))>") }
            return .end(name: String(name))
        }
        var body = Substring(text)
        var selfClosing = false
        if body.hasSuffix("/") {
            selfClosing = true
            body = body.dropLast()
        }
        let nameEnd = body.firstIndex(where: \.isXMLWhitespace) ?? body.endIndex
        let name = body[..<nameEnd]
        guard Self.isName(name) else { throw .notWellFormed("a bad tag name '\(name.prefix(40))'") }
        var rest = body[nameEnd...]
        var attributes: [(String, String)] = []
        while true {
            rest = rest.drop(while: \.isXMLWhitespace)
            guard !rest.isEmpty else { break }
            guard let equals = rest.firstIndex(of: "=") else { throw .notWellFormed("an attribute without a value in <\(name)>") }
            let key = rest[..<equals].trimmingWhitespace()
            guard Self.isName(key) else { throw .notWellFormed("a bad attribute name '\(key.prefix(40))' in <\(name)>") }
            rest = rest[rest.index(after: equals)...].drop(while: \.isXMLWhitespace)
            guard let quote = rest.first, quote == "\"" || quote == "'" else {
                throw .notWellFormed("an attribute value without quotes in <\(name)>")
            }
            rest = rest.dropFirst()
            guard let close = rest.firstIndex(of: quote) else { throw .notWellFormed("an attribute value not closed in <\(name)>") }
            let raw = rest[..<close]
            guard !raw.contains("<") else { throw .notWellFormed("'<' in an attribute value of <\(name)>") }
            guard !attributes.contains(where: { $0.0 == String(key) }) else { throw .notWellFormed("attribute '\(key)' twice in <\(name)>") }
            attributes.append((String(key), try Self.decodeEntities(raw)))
            guard attributes.count <= limits.maxAttributes else { throw .policyViolation("more than \(limits.maxAttributes) attributes on <\(name)>") }
            rest = rest[rest.index(after: close)...]
            guard rest.isEmpty || rest.first!.isXMLWhitespace else { throw .notWellFormed("attributes not separated in <\(name)>") }
        }
        return .start(name: String(name), attributes: attributes, selfClosing: selfClosing)
    }

    // MARK: Tree

    private mutating func handle(_ tag: Tag) throws(XMLStreamError) -> Event? {
        switch tag {
        case .declaration:
            return nil
        case .characterData(let text):
            guard open.count > 1 else { throw .notWellFormed("character data between stanzas") }
            open[open.count - 1].element.children.append(.text(text))
            return nil
        case .start(let qualified, let attributes, let selfClosing):
            var scope = open.last?.scope ?? ["xml": "http://www.w3.org/XML/1998/namespace"]
            var plain: [String: String] = [:]
            for (key, value) in attributes {
                if key == "xmlns" {
                    scope[""] = value
                } else if key.hasPrefix("xmlns:") {
                    scope[String(key.dropFirst(6))] = value
                } else {
                    plain[key] = value
                }
            }
            let (prefix, local) = Self.split(qualified)
            guard let namespace = scope[prefix ?? ""] else {
                throw .notWellFormed("no namespace for <\(qualified)>")
            }
            let element = XMPPElement(local, namespace: namespace, attributes: plain)
            if open.isEmpty {
                guard local == "stream", namespace == Self.streamsNamespace, !selfClosing else {
                    throw .notWellFormed("the stream must begin with <stream:stream>, not <\(qualified)>")
                }
                open.append((element, qualified, scope))
                return .streamOpened(XMPPStreamHeader(attributes: plain, defaultNamespace: scope[""]))
            }
            guard open.count <= limits.maxDepth else { throw .policyViolation("elements nested deeper than \(limits.maxDepth)") }
            if open.count == 1 { stanzaBytes = 0 }
            if selfClosing { return close(element) }
            open.append((element, qualified, scope))
            return nil
        case .end(let name):
            guard let last = open.last else { throw .notWellFormed("</\(name)> before the stream began") }
            guard last.qualifiedName == name else { throw .notWellFormed("</\(name)> closes <\(last.qualifiedName)>") }
            open.removeLast()
            if open.isEmpty {
                streamEnded = true
                return .streamClosed
            }
            return close(last.element)
        }
    }

    /// Puts a finished element into its parent, or returns it when it is top-level.
    private mutating func close(_ element: XMPPElement) -> Event? {
        if open.count == 1 { return .element(element) }
        open[open.count - 1].element.children.append(.element(element))
        return nil
    }

    private mutating func handleText(_ bytes: ArraySlice<UInt8>) throws(XMLStreamError) {
        if open.count <= 1 {
            guard bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) else {
                throw .notWellFormed("character data outside a stanza")
            }
            seenAnything = seenAnything || open.count == 1
            return
        }
        stanzaBytes += bytes.count
        let text = try Self.decodeEntities(Substring(try utf8(bytes)))
        open[open.count - 1].element.children.append(.text(text))
    }

    // MARK: Text

    private func utf8(_ bytes: ArraySlice<UInt8>) throws(XMLStreamError) -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .notWellFormed("bytes that are not UTF-8") }
        return text
    }

    /// Replaces the five predefined entities and character references; refuses any other.
    static func decodeEntities(_ text: Substring) throws(XMLStreamError) -> String {
        guard text.contains("&") else { return String(text) }
        var out = ""
        var rest = text
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            guard let semicolon = rest[amp...].firstIndex(of: ";"), rest.distance(from: amp, to: semicolon) <= 10 else {
                throw .notWellFormed("'&' that begins no reference")
            }
            let name = rest[rest.index(after: amp)..<semicolon]
            switch name {
            case "lt": out += "<"
            case "gt": out += ">"
            case "amp": out += "&"
            case "quot": out += "\""
            case "apos": out += "'"
            default:
                guard name.hasPrefix("#") else { throw .restrictedXML("the entity reference &\(name);") }
                let digits = name.dropFirst()
                let value = digits.hasPrefix("x") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
                guard let value, let scalar = Unicode.Scalar(value), Self.isXMLCharacter(scalar) else {
                    throw .notWellFormed("the character reference &\(name); names no XML character")
                }
                out.unicodeScalars.append(scalar)
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return out + rest
    }

    static func isXMLCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    private static func isName<S: StringProtocol>(_ name: S) -> Bool {
        guard let first = name.first, !first.isNumber, first != "-", first != "." else { return false }
        return name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." || $0 == ":" }
            && name.filter({ $0 == ":" }).count <= 1 && !name.hasPrefix(":") && !name.hasSuffix(":")
    }

    private static func split(_ qualified: String) -> (prefix: String?, local: String) {
        guard let colon = qualified.firstIndex(of: ":") else { return (nil, qualified) }
        return (String(qualified[..<colon]), String(qualified[qualified.index(after: colon)...]))
    }
}

/// The attributes of a `<stream:stream>` header.
public struct XMPPStreamHeader: Hashable, Sendable {
    /// `from`, `to`, `id`, `version`, `xml:lang` …
    public var attributes: [String: String]
    /// The stream's default namespace (`jabber:client`).
    public var defaultNamespace: String?
}

extension Character {
    fileprivate var isXMLWhitespace: Bool { self == " " || self == "\t" || self == "\n" || self == "\r" || self == "\r\n" }
}

extension StringProtocol {
    fileprivate func trimmingWhitespace() -> SubSequence {
        let start = firstIndex { !$0.isXMLWhitespace } ?? endIndex
        let end = lastIndex { !$0.isXMLWhitespace }.map { index(after: $0) } ?? start
        return self[start..<Swift.max(start, end)]
    }
}
