import Foundation
import SADEACL

extension FHIRImporter {
    /// The entry holding a number too large for a `Double` (e.g. `1e400`), found by
    /// reading the text with ``JSONCursor``: JSONDecoder refuses such a document as a
    /// whole ("not valid JSON") without saying where, so ``describe(_:in:)`` cannot name
    /// the entry. `nil` when the Bundle's entries hold no such number (or the text is not
    /// JSON: the decoder says so).
    ///
    /// The entry is named by position, and by `fullUrl` and resource `id` when they
    /// come before the number (as in SADE's exports, whose keys are sorted).
    static func unrepresentableNumber(in json: Data) -> FHIRImportError? {
        var cursor = JSONCursor(bytes: Array(json))
        var found: FHIRImportError?
        do {
            try cursor.object { cursor, key throws(JSONCursor.Failure) in
                guard key == "entry", cursor.peek() == UInt8(ascii: "[") else { return try cursor.skipValue() }
                var index = 0
                try cursor.array { cursor throws(JSONCursor.Failure) in
                    found = try hugeNumber(in: &cursor, entry: index)
                    if found != nil { throw JSONCursor.Failure(value: "found") }
                    index += 1
                }
            }
        } catch {
            // Found, or not JSON.
        }
        return found
    }

    /// Reads one entry of the Bundle; the first number in it too large for a `Double`.
    private static func hugeNumber(in cursor: inout JSONCursor, entry index: Int) throws(JSONCursor.Failure) -> FHIRImportError? {
        var fullUrl: String?
        var resourceID: String?
        var found: FHIRImportError?
        /// Reads the value here at `path` (from the entry on, e.g. `resource.valueQuantity.value`).
        func read(_ cursor: inout JSONCursor, at path: String, isEntry: Bool, isResource: Bool) throws(JSONCursor.Failure) {
            switch cursor.peek() ?? 0 {
            case UInt8(ascii: "{"):
                try cursor.object { cursor, key throws(JSONCursor.Failure) in
                    if cursor.peek() == UInt8(ascii: "\""), (isEntry && key == "fullUrl") || (isResource && key == "id") {
                        let text = try cursor.string()
                        if isEntry { fullUrl = text } else { resourceID = text }
                        return
                    }
                    try read(&cursor, at: path.isEmpty ? key : path + "." + key, isEntry: false, isResource: isEntry && key == "resource")
                }
            case UInt8(ascii: "["):
                var element = 0
                try cursor.array { cursor throws(JSONCursor.Failure) in
                    try read(&cursor, at: path + "[\(element)]", isEntry: false, isResource: false)
                    element += 1
                }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let token = try cursor.numberText()
                guard let value = Double(token), !value.isFinite else { return }
                found = FHIRImportError(
                    entry: FHIRImportError.Entry(index: index, fullUrl: fullUrl, id: resourceID),
                    problem: .malformedJSON(path: path, reason: "the number \(token) is too large"))
                throw JSONCursor.Failure(value: "found")
            default:
                try cursor.skipValue()
            }
        }
        do {
            try read(&cursor, at: "", isEntry: true, isResource: false)
        } catch where found != nil {
            return found
        }
        return nil
    }
}
