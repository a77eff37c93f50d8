import Foundation
import Hummingbird
import NIOCore

/// How the API reads request bodies (``MonitoringRequestContext/requestDecoder``): JSON
/// with ISO 8601 dates, at most ``MonitoringRequestContext/maxUploadSize`` bytes (413
/// beyond), and a 400 that names the field at fault when the body does not fit.
public struct APIRequestDecoder: RequestDecoder {
    /// Accepts ISO 8601 dates with or without fractional seconds.
    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            if let date = APIDate.parse(text) { return date }
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "is not an ISO 8601 date-time: \(text)")
        }
        return decoder
    }()

    /// Decodes the request's body as `T`.
    public func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws -> T {
        let channel = (context as? MonitoringRequestContext)?.channel
        return try decode(type, from: Data(buffer: try await Self.collect(request, limit: context.maxUploadSize, channel: channel)))
    }

    /// `data` decoded as `T`, or a 400 that says what is wrong and where.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        guard !data.isEmpty else { throw APIError.invalid("the body is empty: a JSON document is needed", code: "invalid-body") }
        do {
            return try Self.decoder.decode(type, from: data)
        } catch let error as DecodingError {
            throw APIError.invalid(Self.describe(error), code: "invalid-body")
        }
    }

    /// The body collected up to `limit` bytes, for routes that read it themselves (a
    /// batch of observations, a home's events).
    ///
    /// Beyond the limit it is a 413 — after the rest of the body was read and dropped (up
    /// to ``drainLimit(for:)`` bytes in all), so that a client that writes its whole body
    /// before it reads (Python's urllib, any client sending `Connection: close`) gets the
    /// answer instead of waiting on a server that stopped reading. Longer still, the
    /// connection (`channel`) is closed: the client learns at once, and no task of the
    /// server waits on it.
    static func collect(_ request: Request, limit: Int, channel: (any Channel)?) async throws -> ByteBuffer {
        var collected = ByteBuffer()
        var parts = request.body.makeAsyncIterator()
        while let part = try await parts.next() {
            guard collected.readableBytes + part.readableBytes <= limit else {
                var read = collected.readableBytes + part.readableBytes
                while read <= drainLimit(for: limit), let more = try await parts.next() { read += more.readableBytes }
                if read > drainLimit(for: limit) { channel?.close(promise: nil) }
                throw APIError(.contentTooLarge, code: "body-too-large", message: "the body is larger than \(limit) bytes")
            }
            collected.writeImmutableBuffer(part)
        }
        return collected
    }

    /// How much of a body over `limit` is read and dropped before the connection is
    /// closed instead: eight times the limit, at least 16 MiB.
    static func drainLimit(for limit: Int) -> Int {
        max(limit.multipliedReportingOverflow(by: 8).overflow ? .max : limit * 8, 16 << 20)
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

/// How the API writes what a route returns (``MonitoringRequestContext/responseEncoder``):
/// JSON with sorted keys and ISO 8601 dates in UTC, with fractional seconds when there
/// are any.
public struct APIResponseEncoder: ResponseEncoder {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(APIDate.format(date))
        }
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// A `200 OK` JSON response; a route wraps its value in `EditedResponse` for another status.
    public func encode(_ value: some Encodable, from request: Request, context: some RequestContext) throws -> Response {
        let data = try Self.encoder.encode(value)
        return Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// Dates as the API reads and writes them.
public enum APIDate {
    /// An ISO 8601 date-time, with or without fractional seconds, or `nil`.
    public static func parse(_ text: String) -> Date? {
        (try? Date(text, strategy: .iso8601)) ?? (try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
    }

    /// `date` in ISO 8601, UTC, with fractional seconds.
    public static func format(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }
}
