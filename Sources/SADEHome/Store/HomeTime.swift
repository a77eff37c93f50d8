import Foundation

/// How home stores keep times: integer milliseconds since 1970 (what gateways and the
/// thesis's requests use), and each flat's calendar.
package enum HomeTime {
    /// Milliseconds since 1970 for `date`.
    package static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    /// The date of `milliseconds` since 1970.
    package static func date(_ milliseconds: Int64) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }

    /// The Gregorian calendar in `zone` (UTC when unknown).
    package static func calendar(_ zone: String?) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone.flatMap(TimeZone.init(identifier:)) ?? .gmt
        return calendar
    }
}

/// JSON columns (rooms' polygons and doors, carers, rules).
package enum StoredJSON {
    /// `value` as JSON text.
    package static func text<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }

    /// The value of JSON text read from a column.
    package static func value<T: Decodable>(_ type: T.Type, _ text: String?) throws -> T {
        guard let text else { throw HomeError.storage("a JSON column is empty") }
        return try JSONDecoder().decode(type, from: Data(text.utf8))
    }
}
