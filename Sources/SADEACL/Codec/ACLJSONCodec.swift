import Foundation

/// The JSON object form of a message (see `ACLMessage`'s `Codable` conformance):
/// `{"performative":"inform","receiver":[{"name":"b"}],…}`, keys sorted.
public struct ACLJSONCodec: ACLCodec {
    /// Why bytes are not a message in JSON form: where in the JSON and what is wrong.
    public struct DecodingFailure: Error, Hashable, Sendable, CustomStringConvertible {
        /// The path to the offending value, e.g. `receiver[0].name`; empty for the whole text.
        public var path: String
        /// What is wrong, in words.
        public var reason: String
        /// The line of the input on which the failing JSON value starts, from 1.
        public var line: Int

        /// Creates a failure.
        public init(path: String, reason: String, line: Int = 1) {
            self.path = path
            self.reason = reason
            self.line = line
        }

        /// Where in the value and what is wrong: `at receiver[0].name: expected a string`
        /// (just the reason when it concerns the whole value).
        public var explanation: String { path.isEmpty ? reason : "at \(path): \(reason)" }

        /// `line 1: at receiver[0].name: expected a string`.
        public var description: String { "line \(line): \(explanation)" }
    }

    /// The size bound decoding keeps to (nesting is bounded by the JSON decoder, and in
    /// ``decodeAll(_:)`` by the splitter's reader to 64 levels).
    public var limits: ACLParseLimits
    /// Whether ``encode(_:)`` indents the object over several lines.
    public var prettyPrinted: Bool

    /// Creates a codec; compact output unless `prettyPrinted`.
    public init(limits: ACLParseLimits = .default, prettyPrinted: Bool = false) {
        self.limits = limits
        self.prettyPrinted = prettyPrinted
    }

    /// The message as one JSON object, keys sorted, slashes not escaped.
    public func encode(_ message: ACLMessage) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        if prettyPrinted { encoder.outputFormatting.insert(.prettyPrinted) }
        return Array(try encoder.encode(message))
    }

    /// The message in the JSON object in `bytes`; throws ``ACLParseError`` when the bytes
    /// are over the size limit and ``DecodingFailure`` when they are not such an object.
    public func decode(_ bytes: [UInt8]) throws -> ACLMessage {
        try checkSize(bytes.count)
        return try Self.decode(ACLMessage.self, from: Data(bytes), line: 1)
    }

    /// Every message in `bytes`: one object, an array of objects, or several of either one
    /// after the other (one per line, or pretty-printed ones in a row). The size limit
    /// applies to each top-level value.
    public func decodeAll(_ bytes: [UInt8]) throws -> [ACLMessage] {
        var messages: [ACLMessage] = []
        for value in try JSONValueSplitter.split(bytes) {
            try checkSize(value.range.count)
            let data = Data(bytes[value.range])
            if bytes[value.range.lowerBound] == UInt8(ascii: "[") {
                messages += try Self.decode([ACLMessage].self, from: data, line: value.line)
            } else {
                messages.append(try Self.decode(ACLMessage.self, from: data, line: value.line))
            }
        }
        return messages
    }

    private func checkSize(_ size: Int) throws(ACLParseError) {
        guard size <= limits.maxMessageBytes else {
            throw ACLParseError(.tooLarge(size: size, limit: limits.maxMessageBytes), line: 1, column: 1, offset: 0)
        }
    }

    private static func decode<Value: Decodable>(_ type: Value.Type, from data: Data, line: Int) throws -> Value {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let error as DecodingError {
            throw DecodingFailure(error, line: line)
        }
    }
}

extension ACLJSONCodec.DecodingFailure {
    /// Says in words what a `DecodingError` means.
    init(_ error: DecodingError, line: Int) {
        func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.reduce(into: "") { path, key in
                if let index = key.intValue {
                    path += "[\(index)]"
                } else {
                    path += (path.isEmpty ? "" : ".") + key.stringValue
                }
            }
        }
        switch error {
        case .typeMismatch(let type, let context):
            self.init(path: path(context.codingPath), reason: "expected \(Self.name(of: type))", line: line)
        case .valueNotFound(let type, let context):
            self.init(path: path(context.codingPath), reason: "expected \(Self.name(of: type)), found null", line: line)
        case .keyNotFound(let key, let context):
            self.init(path: path(context.codingPath), reason: "missing key '\(key.stringValue)'", line: line)
        case .dataCorrupted(let context):
            let underlying = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            let reason =
                context.codingPath.isEmpty
                ? "not valid JSON" + (underlying.map { ": \($0)" } ?? "") : context.debugDescription
            self.init(path: path(context.codingPath), reason: reason, line: line)
        @unknown default:
            self.init(path: "", reason: "\(error)", line: line)
        }
    }

    private static func name(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is [Any].Type: "an array"
        case is [String: Any].Type: "an object"
        default: "\(type)"
        }
    }
}
