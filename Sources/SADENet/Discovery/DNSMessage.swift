/// A DNS name: labels, compared regardless of ASCII case (RFC 1035 §2.3.3, RFC 6762 §16).
public struct DNSName: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The labels, the top-level one last (no empty root label).
    public let labels: [String]

    /// A name of `labels`.
    public init(labels: [String]) { self.labels = labels }

    /// `"_sade._tcp.local"` (a trailing dot is allowed). Dots inside a label are not
    /// escaped: an instance name with a dot is built with ``init(labels:)``.
    public init(_ text: String) {
        labels = text.split(separator: ".", omittingEmptySubsequences: true).map(String.init)
    }

    public init(stringLiteral value: String) { self.init(value) }

    /// `instance` as the first label of this name.
    public func prepending(_ label: String) -> DNSName { DNSName(labels: [label] + labels) }

    public var description: String { labels.joined(separator: ".") }

    public static func == (lhs: DNSName, rhs: DNSName) -> Bool {
        lhs.labels.count == rhs.labels.count && zip(lhs.labels, rhs.labels).allSatisfy { $0.lowercased() == $1.lowercased() }
    }

    public func hash(into hasher: inout Hasher) {
        for label in labels { hasher.combine(label.lowercased()) }
    }
}

/// The record types DNS-SD uses; others are kept as their number.
public struct DNSRecordType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let a = DNSRecordType(rawValue: 1)
    public static let ptr = DNSRecordType(rawValue: 12)
    public static let txt = DNSRecordType(rawValue: 16)
    public static let aaaa = DNSRecordType(rawValue: 28)
    public static let srv = DNSRecordType(rawValue: 33)
    public static let nsec = DNSRecordType(rawValue: 47)
    public static let any = DNSRecordType(rawValue: 255)

    public var description: String {
        switch self {
        case .a: "A"
        case .ptr: "PTR"
        case .txt: "TXT"
        case .aaaa: "AAAA"
        case .srv: "SRV"
        case .nsec: "NSEC"
        case .any: "ANY"
        default: "TYPE\(rawValue)"
        }
    }
}

/// A question: a name and a type, in class IN; `unicastResponse` is mDNS's QU bit.
public struct DNSQuestion: Hashable, Sendable {
    public var name: DNSName
    public var type: DNSRecordType
    public var unicastResponse: Bool

    public init(_ name: DNSName, _ type: DNSRecordType, unicastResponse: Bool = false) {
        self.name = name
        self.type = type
        self.unicastResponse = unicastResponse
    }
}

/// What a record says.
public enum DNSRecordData: Hashable, Sendable {
    /// A pointer to another name (DNS-SD: a service type to an instance).
    case ptr(DNSName)
    /// Where an instance is served: host and port (RFC 2782).
    case srv(priority: UInt16, weight: UInt16, port: UInt16, target: DNSName)
    /// Strings, DNS-SD's `key=value` pairs (RFC 6763 §6).
    case txt([String])
    /// An IPv4 address.
    case a(IPv4Address)
    /// An IPv6 address (16 bytes).
    case aaaa([UInt8])
    /// Any other type, as its bytes.
    case other(DNSRecordType, [UInt8])

    /// The record's type.
    public var type: DNSRecordType {
        switch self {
        case .ptr: .ptr
        case .srv: .srv
        case .txt: .txt
        case .a: .a
        case .aaaa: .aaaa
        case .other(let type, _): type
        }
    }
}

/// An IPv4 address.
public struct IPv4Address: Hashable, Sendable, CustomStringConvertible {
    public let bytes: (UInt8, UInt8, UInt8, UInt8)

    public init(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) { bytes = (a, b, c, d) }

    /// `"192.168.1.7"`, if it is one.
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).compactMap { UInt8($0) }
        guard parts.count == 4, text.split(separator: ".").count == 4 else { return nil }
        bytes = (parts[0], parts[1], parts[2], parts[3])
    }

    public var description: String { "\(bytes.0).\(bytes.1).\(bytes.2).\(bytes.3)" }

    public static func == (lhs: IPv4Address, rhs: IPv4Address) -> Bool { lhs.description == rhs.description }
    public func hash(into hasher: inout Hasher) { hasher.combine(description) }
}

/// A resource record; `cacheFlush` is mDNS's top bit of the class (RFC 6762 §10.2).
public struct DNSRecord: Hashable, Sendable {
    public var name: DNSName
    public var data: DNSRecordData
    /// Seconds it may be cached; 0 is a goodbye (RFC 6762 §10.1).
    public var ttl: UInt32
    public var cacheFlush: Bool

    public init(_ name: DNSName, _ data: DNSRecordData, ttl: UInt32, cacheFlush: Bool = false) {
        self.name = name
        self.data = data
        self.ttl = ttl
        self.cacheFlush = cacheFlush
    }

    public var type: DNSRecordType { data.type }
}

/// A DNS message as mDNS sends it (RFC 1035 §4, RFC 6762 §18).
public struct DNSMessage: Hashable, Sendable {
    public var id: UInt16
    /// Whether it answers (QR) — mDNS responses are also authoritative (AA).
    public var isResponse: Bool
    public var questions: [DNSQuestion]
    public var answers: [DNSRecord]
    public var authorities: [DNSRecord]
    public var additionals: [DNSRecord]

    public init(
        id: UInt16 = 0, isResponse: Bool, questions: [DNSQuestion] = [], answers: [DNSRecord] = [], authorities: [DNSRecord] = [],
        additionals: [DNSRecord] = []
    ) {
        self.id = id
        self.isResponse = isResponse
        self.questions = questions
        self.answers = answers
        self.authorities = authorities
        self.additionals = additionals
    }

    /// Every record, answers first.
    public var records: [DNSRecord] { answers + authorities + additionals }
}
