import Foundation
import Hummingbird
import SADEHealth
import SADEMonitoring

/// The query string of `GET /patients/{id}/observations`: `type` (one or a
/// comma-separated list; the vital signs by default), `from` and `to` (ISO 8601; the
/// last 24 hours by default), `bucket` (seconds, or `1m`, `5m`, `15m`, `1h`, `1d`) and
/// `limit` (raw samples of all the types together, at most 10,000).
struct ObservationQuery {
    static let maximumLimit = 10_000
    static let maximumBuckets = 10_000
    static let maximumTypes = 16

    var types: [HealthType]
    var from: Date
    var to: Date
    var bucket: TimeInterval?
    var limit: Int

    init(_ parameters: Parameters, now: Date) throws {
        if let list = parameters["type"], !list.isEmpty {
            let names = list.split(separator: ",")
            guard names.count <= Self.maximumTypes else {
                throw APIError.invalid("type: at most \(Self.maximumTypes) types", code: "invalid-parameter")
            }
            var seen = Set<HealthType>()
            types = try names.compactMap { name in
                let type: HealthType
                do { type = try HealthType(identifier: String(name)) } catch {
                    throw APIError.invalid("type: unknown type '\(name)'", code: "invalid-parameter")
                }
                return seen.insert(type).inserted ? type : nil
            }
        } else {
            types = PatientOverview.vitalTypes
        }
        to = try Self.date(parameters["to"], name: "to") ?? now
        from = try Self.date(parameters["from"], name: "from") ?? to.addingTimeInterval(-86_400)
        guard from <= to else { throw APIError.invalid("from: must not be after to", code: "invalid-parameter") }
        limit = 1000
        if let text = parameters["limit"] {
            guard let value = Int(text), (1...Self.maximumLimit).contains(value) else {
                throw APIError.invalid("limit: must be a whole number from 1 to \(Self.maximumLimit)", code: "invalid-parameter")
            }
            limit = value
        }
        if let text = parameters["bucket"] {
            guard let seconds = Self.seconds(text), seconds >= 1 else {
                throw APIError.invalid("bucket: must be seconds or 1m, 5m, 15m, 1h, 1d", code: "invalid-parameter")
            }
            guard to.timeIntervalSince(from) / seconds <= Double(Self.maximumBuckets) else {
                throw APIError.invalid("bucket: more than \(Self.maximumBuckets) buckets; widen the bucket", code: "invalid-parameter")
            }
            bucket = seconds
        }
    }

    static func date(_ text: Substring?, name: String) throws -> Date? {
        guard let text else { return nil }
        guard let date = APIDate.parse(String(text)) else {
            throw APIError.invalid("\(name): is not an ISO 8601 date-time", code: "invalid-parameter")
        }
        return date
    }

    static func seconds(_ text: Substring) -> TimeInterval? {
        let units: [Character: TimeInterval] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        if let last = text.last, let unit = units[last], let count = Double(text.dropLast()), count.isFinite { return count * unit }
        return Double(text).flatMap { $0.isFinite ? $0 : nil }
    }
}

/// A sample as the API shows it.
struct SampleView: ResponseEncodable {
    let id: UUID
    let type: String
    let value: Double
    let unit: String
    let start: Date
    let end: Date
    let device: String?

    init?(_ sample: HealthSample) {
        switch sample.value {
        case .quantity(let quantity):
            guard case .quantity(let type) = sample.type, let value = try? quantity.value(in: type.canonicalUnit) else { return nil }
            (self.value, unit) = (value, type.canonicalUnit.symbol)
        case .category(let raw): (value, unit) = (Double(raw), "level")
        default: return nil
        }
        (id, type, start, end, device) = (sample.id, sample.type.identifier, sample.start, sample.end, sample.device)
    }
}

/// Aggregates of one type per bucket.
struct BucketSeries: ResponseEncodable {
    struct Bucket: Encodable {
        let start: Date
        let end: Date
        let count: Int
        let minimum: Double?
        let maximum: Double?
        let average: Double?
    }

    let type: String
    let unit: String
    let buckets: [Bucket]

    init(type: QuantityType, statistics: [HealthStatistics]) {
        self.type = type.rawValue
        unit = type.canonicalUnit.symbol
        func value(_ quantity: HealthQuantity?) -> Double? { quantity.flatMap { try? $0.value(in: type.canonicalUnit) } }
        buckets = statistics.map {
            Bucket(start: $0.start, end: $0.end, count: $0.count, minimum: value($0.minimum), maximum: value($0.maximum), average: value($0.average))
        }
    }
}
