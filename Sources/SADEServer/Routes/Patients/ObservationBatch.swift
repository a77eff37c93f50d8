import Foundation
import SADEACL
import SADEMonitoring

/// A body that is one observation or an array of them.
///
/// Read in one pass with `JSONCursor` rather than `JSONDecoder`: this is the body
/// every device posts, and `Codable` took ~10 % of the server's CPU under load
/// (BENCHMARKS.md, `http-ingest`). Errors name the field as ``APIRequestDecoder``'s do
/// (`body[3].value: should be a number`); members it does not know are skipped.
struct ObservationBatch: Sendable {
    let observations: [ObservationInput]
    let isArray: Bool

    /// The batch in `bytes` (UTF-8 JSON), or a 400 saying what is wrong and where.
    static func decode(_ bytes: [UInt8]) throws(APIError) -> ObservationBatch {
        guard !bytes.isEmpty else { throw APIError.invalid("the body is empty: a JSON document is needed", code: "invalid-body") }
        var cursor = JSONCursor(bytes: bytes)
        do {
            let batch: ObservationBatch
            if cursor.peek() == UInt8(ascii: "[") {
                var items: [ObservationInput] = []
                try cursor.array { element throws(JSONCursor.Failure) in
                    items.append(try observation(&element, path: "body[\(items.count)]"))
                }
                batch = ObservationBatch(observations: items, isArray: true)
            } else {
                batch = ObservationBatch(observations: [try observation(&cursor, path: "")], isArray: false)
            }
            try cursor.expectEnd()
            return batch
        } catch {
            throw APIError.invalid(error.isAboutAValue ? error.description : "the body is not valid JSON (\(error))", code: "invalid-body")
        }
    }

    private static func observation(_ cursor: inout JSONCursor, path: String) throws(JSONCursor.Failure) -> ObservationInput {
        var type: String?, value: Double?, unit: String?, start: Date?, end: Date?, device: String?
        var valueIsNull = false
        try cursor.object { member, key throws(JSONCursor.Failure) in
            func text(_ what: String) throws(JSONCursor.Failure) -> String? {
                if member.null() { return nil }
                guard member.peek() == UInt8(ascii: "\"") else { throw mismatch(path, key, "should be \(what)") }
                return try member.string()
            }
            func date() throws(JSONCursor.Failure) -> Date? {
                guard let text = try text("an ISO 8601 date-time") else { return nil }
                guard let date = APIDate.parse(text) else { throw mismatch(path, key, "is not an ISO 8601 date-time: \(text)") }
                return date
            }
            switch key {
            case "type": type = try text("a string")
            case "value":
                if member.null() {
                    valueIsNull = true
                } else {
                    guard let byte = member.peek(), byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else {
                        throw mismatch(path, key, "should be a number")
                    }
                    value = try member.number()
                }
            case "unit": unit = try text("a string")
            case "start": start = try date()
            case "end": end = try date()
            case "device": device = try text("a string")
            default: try member.skipValue()
            }
        }
        guard let type else { throw mismatch(path, "type", "is missing") }
        guard let value else { throw mismatch(path, "value", valueIsNull ? "should be a number, not null" : "is missing") }
        guard let start else { throw mismatch(path, "start", "is missing") }
        return ObservationInput(type: type, value: value, unit: unit, start: start, end: end, device: device)
    }

    /// A value that does not fit, named by its path.
    private static func mismatch(_ path: String, _ key: String, _ reason: String) -> JSONCursor.Failure {
        JSONCursor.Failure(value: "\(path.isEmpty ? "" : path + ".")\(key): \(reason)")
    }
}
