import Foundation
import SADEACL
import SADEHealth

/// The JSON of a ``SampleBatch``, written and read by hand: the same document
/// `JSONEncoder` makes of the batch (its `Codable` form, so either side can be read by
/// the other), at a fraction of the cost. Under load the pipeline moves every accepted
/// sample through this codec twice, and Foundation's coders were a third of the
/// server's CPU (see BENCHMARKS.md, `http-ingest`).
enum SampleBatchJSON {
    /// Why a document is not a batch.
    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    // MARK: Writing

    /// The batch as JSON text; non-finite numbers (which JSON cannot hold) are refused.
    static func encode(_ batch: SampleBatch) throws(Malformed) -> String {
        var out = "{\"id\":"
        out.reserveCapacity(256 + batch.samples.count * 256)
        string(batch.id.uuidString, into: &out)
        out += ",\"anchors\":{"
        for (index, (type, anchor)) in batch.anchors.sorted(by: { $0.key < $1.key }).enumerated() {
            if index > 0 { out += "," }
            string(type, into: &out)
            out += ":{\"rawValue\":\(anchor.rawValue)}"
        }
        out += "},\"shards\":[" + batch.shards.members.map(String.init).joined(separator: ",") + "],\"samples\":"
        try samples(batch.samples, into: &out)
        out += "}"
        return out
    }

    private static func samples(_ samples: [HealthSample], into out: inout String) throws(Malformed) {
        out += "["
        for (index, sample) in samples.enumerated() {
            if index > 0 { out += "," }
            try self.sample(sample, into: &out)
        }
        out += "]"
    }

    private static func sample(_ sample: HealthSample, into out: inout String) throws(Malformed) {
        out += "{\"id\":"
        string(sample.id.uuidString, into: &out)
        out += ",\"patient\":"
        string(sample.patient.rawValue, into: &out)
        out += ",\"type\":"
        string(sample.type.identifier, into: &out)
        out += ",\"value\":"
        try value(sample.value, into: &out)
        out += ",\"start\":"
        try number(sample.start.timeIntervalSinceReferenceDate, into: &out)
        out += ",\"end\":"
        try number(sample.end.timeIntervalSinceReferenceDate, into: &out)
        if let device = sample.device {
            out += ",\"device\":"
            string(device, into: &out)
        }
        if let source = sample.source {
            out += ",\"source\":"
            string(source, into: &out)
        }
        out += ",\"metadata\":{"
        for (index, (key, text)) in sample.metadata.sorted(by: { $0.key < $1.key }).enumerated() {
            if index > 0 { out += "," }
            string(key, into: &out)
            out += ":"
            string(text, into: &out)
        }
        out += "}}"
    }

    /// An enum case with one associated value, as Swift synthesises it: `{"case":{"_0":…}}`.
    private static func value(_ value: HealthSample.Value, into out: inout String) throws(Malformed) {
        switch value {
        case .quantity(let quantity):
            out += "{\"quantity\":{\"_0\":{\"value\":"
            try number(quantity.value, into: &out)
            out += ",\"unit\":"
            string(quantity.unit.symbol, into: &out)
            out += "}}}"
        case .category(let code):
            out += "{\"category\":{\"_0\":\(code)}}"
        case .correlation(let members):
            out += "{\"correlation\":{\"_0\":"
            try samples(members, into: &out)
            out += "}}"
        case .electrocardiogram(let ecg):
            out += "{\"electrocardiogram\":{\"_0\":{\"samplingFrequency\":"
            try number(ecg.samplingFrequency, into: &out)
            out += ",\"lead\":"
            string(ecg.lead, into: &out)
            out += ",\"voltages\":["
            for (index, voltage) in ecg.voltages.enumerated() {
                if index > 0 { out += "," }
                try number(voltage, into: &out)
            }
            out += "],\"unit\":"
            string(ecg.unit.symbol, into: &out)
            if let rate = ecg.averageHeartRate {
                out += ",\"averageHeartRate\":"
                try number(rate, into: &out)
            }
            out += "}}}"
        }
    }

    /// The shortest text that reads back as the same `Double`.
    private static func number(_ value: Double, into out: inout String) throws(Malformed) {
        guard value.isFinite else { throw Malformed(description: "\(value) cannot be written in JSON") }
        out += value.description
    }

    /// A JSON string: quotes, backslashes and control characters escaped.
    private static func string(_ text: String, into out: inout String) {
        out += "\""
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            out += text
        } else {
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case _ where scalar.value < 0x20: out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
                default: out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }

    // MARK: Reading

    /// The batch in `text`, or what is wrong with it (naming the place).
    static func decode(_ text: String) throws(Malformed) -> SampleBatch {
        var cursor = JSONCursor(text)
        var id: UUID?, samples: [HealthSample]?, anchors: [String: HealthAnchor]?, shards = PatientShards.all
        do {
            try cursor.object { cursor, key throws(JSONCursor.Failure) in
                switch key {
                case "id": id = UUID(uuidString: try cursor.string())
                case "samples": samples = try sampleList(&cursor, "samples")
                case "anchors":
                    var read: [String: HealthAnchor] = [:]
                    try cursor.object { cursor, type throws(JSONCursor.Failure) in
                        try cursor.object { cursor, field throws(JSONCursor.Failure) in
                            guard field == "rawValue" else { return try cursor.skipValue() }
                            read[type] = HealthAnchor(rawValue: try whole(&cursor, "anchors.\(type).rawValue"))
                        }
                    }
                    anchors = read
                case "shards":
                    var members: [Int] = []
                    try cursor.array { cursor throws(JSONCursor.Failure) in members.append(Int(try whole(&cursor, "shards[\(members.count)]"))) }
                    shards = PatientShards(members)
                default: try cursor.skipValue()
                }
            }
            try cursor.expectEnd()
        } catch {
            throw Malformed(description: error.description)
        }
        guard let id else { throw Malformed(description: "id: missing or not a UUID") }
        guard let samples, let anchors else { throw Malformed(description: "batch: samples or anchors missing") }
        return SampleBatch(id: id, samples: samples, anchors: anchors, shards: shards)
    }

    private static func sampleList(_ cursor: inout JSONCursor, _ path: String) throws(JSONCursor.Failure) -> [HealthSample] {
        var samples: [HealthSample] = []
        try cursor.array { cursor throws(JSONCursor.Failure) in samples.append(try sample(&cursor, "\(path)[\(samples.count)]")) }
        return samples
    }

    private static func sample(_ cursor: inout JSONCursor, _ path: String) throws(JSONCursor.Failure) -> HealthSample {
        var id: UUID?, patient: String?, type: HealthType?, value: HealthSample.Value?, start: Double?, end: Double?
        var device: String?, source: String?, metadata: [String: String]?
        try cursor.object { cursor, key throws(JSONCursor.Failure) in
            switch key {
            case "id": id = UUID(uuidString: try cursor.string())
            case "patient": patient = try cursor.string()
            case "type":
                let name = try cursor.string()
                do { type = try HealthType(identifier: name) } catch { throw JSONCursor.Failure(description: "\(path).type: \(error)") }
            case "value": value = try self.value(&cursor, "\(path).value")
            case "start": start = try cursor.number()
            case "end": end = try cursor.number()
            case "device": device = cursor.null() ? nil : try cursor.string()
            case "source": source = cursor.null() ? nil : try cursor.string()
            case "metadata":
                var read: [String: String] = [:]
                try cursor.object { cursor, name throws(JSONCursor.Failure) in read[name] = try cursor.string() }
                metadata = read
            default: try cursor.skipValue()
            }
        }
        guard let id, let patient, let type, let value, let start, let end, let metadata else {
            throw JSONCursor.Failure(description: "\(path): a field is missing or has the wrong kind")
        }
        return HealthSample(
            id: id, patient: PatientID(rawValue: patient), type: type, value: value,
            start: Date(timeIntervalSinceReferenceDate: start), end: Date(timeIntervalSinceReferenceDate: end),
            device: device, source: source, metadata: metadata)
    }

    /// `{"case":{"_0":…}}`.
    private static func value(_ cursor: inout JSONCursor, _ path: String) throws(JSONCursor.Failure) -> HealthSample.Value {
        var value: HealthSample.Value?
        try cursor.object { cursor, kind throws(JSONCursor.Failure) in
            guard value == nil else { throw JSONCursor.Failure(description: "\(path): more than one case") }
            try cursor.object { cursor, field throws(JSONCursor.Failure) in
                guard field == "_0" else { return try cursor.skipValue() }
                switch kind {
                case "quantity": value = try quantity(&cursor, "\(path).quantity._0")
                case "category": value = .category(Int(try whole(&cursor, "\(path).category._0")))
                case "correlation": value = .correlation(try sampleList(&cursor, "\(path).correlation._0"))
                case "electrocardiogram": value = .electrocardiogram(try electrocardiogram(&cursor, "\(path).electrocardiogram._0"))
                default: throw JSONCursor.Failure(description: "\(path): unknown case '\(kind)'")
                }
            }
        }
        guard let value else { throw JSONCursor.Failure(description: "\(path): no case") }
        return value
    }

    private static func quantity(_ cursor: inout JSONCursor, _ path: String) throws(JSONCursor.Failure) -> HealthSample.Value {
        var number: Double?, unit: HealthUnit?
        try cursor.object { cursor, field throws(JSONCursor.Failure) in
            switch field {
            case "value": number = try cursor.number()
            case "unit": unit = try self.unit(&cursor, "\(path).unit")
            default: try cursor.skipValue()
            }
        }
        guard let number, let unit else { throw JSONCursor.Failure(description: "\(path): value or unit missing") }
        return .quantity(HealthQuantity(number, unit))
    }

    private static func electrocardiogram(_ cursor: inout JSONCursor, _ path: String) throws(JSONCursor.Failure) -> Electrocardiogram {
        var frequency: Double?, lead: String?, voltages: [Double]?, unit: HealthUnit?, rate: Double?
        try cursor.object { cursor, field throws(JSONCursor.Failure) in
            switch field {
            case "samplingFrequency": frequency = try cursor.number()
            case "lead": lead = try cursor.string()
            case "voltages":
                var read: [Double] = []
                try cursor.array { cursor throws(JSONCursor.Failure) in read.append(try cursor.number()) }
                voltages = read
            case "unit": unit = try self.unit(&cursor, "\(path).unit")
            case "averageHeartRate": rate = cursor.null() ? nil : try cursor.number()
            default: try cursor.skipValue()
            }
        }
        guard let frequency, let lead, let voltages, let unit else { throw JSONCursor.Failure(description: "\(path): a field is missing") }
        return Electrocardiogram(samplingFrequency: frequency, lead: lead, voltages: voltages, unit: unit, averageHeartRate: rate)
    }

    private static func unit(_ cursor: inout JSONCursor, _ path: String) throws(JSONCursor.Failure) -> HealthUnit {
        let symbol = try cursor.string()
        do { return try HealthUnit(parsing: symbol) } catch { throw JSONCursor.Failure(description: "\(path): \(error)") }
    }

    private static func whole(_ cursor: inout JSONCursor, _ path: String) throws(JSONCursor.Failure) -> Int64 {
        guard let whole = Int64(exactly: try cursor.number()) else { throw JSONCursor.Failure(description: "\(path): not a whole number") }
        return whole
    }
}
