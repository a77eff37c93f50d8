import Foundation
import Hummingbird

/// Reading request bodies and writing responses as JSON, with ISO 8601 dates and
/// errors that name the field at fault.
public enum JSONBody {
    /// Dates as ISO 8601 in UTC, with fractional seconds when there are any.
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted)))
        }
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// Accepts ISO 8601 dates with or without fractional seconds.
    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            if let date = parseDate(text) { return date }
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "is not an ISO 8601 date-time: \(text)")
        }
        return decoder
    }()

    /// An ISO 8601 date-time, with or without fractional seconds, or `nil`.
    public static func parseDate(_ text: String) -> Date? {
        (try? Date(text, strategy: .iso8601)) ?? (try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
    }

    /// The body collected up to `limit` bytes (413 beyond it) and decoded as `T`
    /// (400 naming the field when it does not fit).
    public static func decode<T: Decodable>(_ type: T.Type, from request: Request, limit: Int) async throws -> T {
        try decode(type, from: Data(buffer: try await collect(request, limit: limit)))
    }

    /// The body collected up to `limit` bytes (413 beyond it).
    static func collect(_ request: Request, limit: Int) async throws -> ByteBuffer {
        do {
            return try await request.body.collect(upTo: limit)
        } catch {
            throw APIError(.contentTooLarge, code: "body-too-large", message: "the body is larger than \(limit) bytes")
        }
    }

    /// `data` decoded as `T`, or a 400 that says what is wrong and where.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        guard !data.isEmpty else { throw APIError.invalid("the body is empty: a JSON document is needed", code: "invalid-body") }
        do {
            return try decoder.decode(type, from: data)
        } catch let error as DecodingError {
            throw APIError.invalid(describe(error), code: "invalid-body")
        }
    }

    /// A JSON response.
    public static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let data = try encoder.encode(value)
        return Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func describe(_ error: DecodingError) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            let text = codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return text.hasPrefix(".") ? String(text.dropFirst()) : (text.isEmpty ? "body" : "body" + text)
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])): is missing"
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)): should be \(describe(type))"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)): should be \(describe(type)), not null"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return "the body is not valid JSON" }
            return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "the body does not fit: \(error)"
        }
    }

    static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Double.Type, is Float.Type: "a number"
        case is Int.Type, is Int64.Type, is UInt8.Type: "an integer"
        case is Bool.Type: "true or false"
        default: "\(type)".hasPrefix("Array") ? "an array" : "an object"
        }
    }
}
