import Foundation

/// Reads request bodies the way the thesis's ASP.NET Core API does: property names in
/// any case (`heartBpm`, `HeartBpm`) and numbers either as JSON numbers or as quoted
/// strings (the ESP32 sends `"heartBpm":"72"`). Errors name the field.
struct WearableJSONObject {
    struct Key: CodingKey {
        let stringValue: String
        let intValue: Int? = nil
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    private let container: KeyedDecodingContainer<Key>
    private let keys: [String: Key]

    init(from decoder: any Decoder) throws {
        container = try decoder.container(keyedBy: Key.self)
        keys = Dictionary(container.allKeys.map { ($0.stringValue.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The key sent for `name`, ignoring case, unless it is missing or null.
    private func key(_ name: String) throws -> Key? {
        guard let key = keys[name.lowercased()], try !container.decodeNil(forKey: key) else { return nil }
        return key
    }

    /// A text value, if present.
    func string(_ name: String) throws -> String? {
        guard let key = try key(name) else { return nil }
        return try container.decode(String.self, forKey: key)
    }

    /// A required text value.
    func requiredString(_ name: String) throws -> String {
        guard let value = try string(name) else {
            throw DecodingError.keyNotFound(Key(stringValue: name), .init(codingPath: [], debugDescription: "missing"))
        }
        return value
    }

    /// A number sent as a number or as a numeric string; `nil` when absent or empty.
    func number(_ name: String) throws -> Double? {
        guard let key = try key(name) else { return nil }
        if let number = try? container.decode(Double.self, forKey: key) { return number }
        guard let text = try? container.decode(String.self, forKey: key) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "should be a number")
        }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return nil }
        guard let number = Double(trimmed), number.isFinite else {
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "should be a number, not \(text.debugDescription)")
        }
        return number
    }

    /// A whole number sent as a number or as a numeric string.
    func integer(_ name: String) throws -> Int? {
        guard let number = try number(name) else { return nil }
        guard number == number.rounded(), abs(number) < 1e15 else {
            let key = keys[name.lowercased()] ?? Key(stringValue: name)
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "should be a whole number")
        }
        return Int(number)
    }
}
