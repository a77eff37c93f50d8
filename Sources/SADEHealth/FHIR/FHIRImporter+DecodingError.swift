import Foundation

extension FHIRImporter {
    /// A decoding failure as an import error: when it lies inside an entry, the entry
    /// is named by position, `fullUrl` and id (read again leniently) and the path is
    /// given from the entry on, e.g. `resource.valueQuantity.value: expected a number`.
    static func describe(_ error: DecodingError, in json: Data) -> FHIRImportError {
        var path: [any CodingKey]
        let reason: String
        switch error {
        case .typeMismatch(let type, let context):
            path = context.codingPath
            reason = "expected \(kind(type))"
        case .valueNotFound(let type, let context):
            path = context.codingPath
            reason = "expected \(kind(type)), found null"
        case .keyNotFound(let key, let context):
            path = context.codingPath + [key]
            reason = "is missing"
        case .dataCorrupted(let context):
            path = context.codingPath
            reason = (context.underlyingError as? NSError)?.userInfo[NSDebugDescriptionErrorKey] as? String ?? context.debugDescription
        @unknown default:
            return FHIRImportError(entry: nil, problem: .malformedJSON(path: "", reason: "\(error)"))
        }
        var entry: FHIRImportError.Entry?
        if path.count >= 2, path[0].stringValue == "entry", let index = path[1].intValue {
            let header = (try? JSONDecoder().decode(LenientBundle.self, from: json))?.entry?.dropFirst(index).first
            entry = FHIRImportError.Entry(index: index, fullUrl: header?.fullUrl, id: header?.id)
            path.removeFirst(2)
        }
        let text = path.reduce("") { text, key in
            if let index = key.intValue { return text + "[\(index)]" }
            return text.isEmpty ? key.stringValue : text + "." + key.stringValue
        }
        return FHIRImportError(entry: entry, problem: .malformedJSON(path: text, reason: reason))
    }

    private static func kind(_ type: Any.Type) -> String {
        switch type {
        case is Double.Type, is Int.Type: "a number"
        case is String.Type: "text"
        case is Bool.Type: "true or false"
        default: String(describing: type).hasPrefix("Array") ? "a list" : "an object"
        }
    }

    /// Only what names an entry, each part read if it can be.
    private struct LenientBundle: Decodable {
        var entry: [LenientEntry]?
    }

    private struct LenientEntry: Decodable {
        var fullUrl: String?
        var id: String?

        private enum Keys: String, CodingKey {
            case fullUrl, resource, id
        }

        init(from decoder: any Decoder) throws {
            let container = try? decoder.container(keyedBy: Keys.self)
            fullUrl = try? container?.decodeIfPresent(String.self, forKey: .fullUrl)
            id = try? container?.nestedContainer(keyedBy: Keys.self, forKey: .resource).decodeIfPresent(String.self, forKey: .id)
        }
    }
}
