import Foundation
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
        out += "},\"samples\":"
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
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: Data(text.utf8))
        } catch {
            throw Malformed(description: "not JSON: \(error)")
        }
        let batch = try object(root, "batch")
        var anchors: [String: HealthAnchor] = [:]
        for (type, anchor) in try object(batch["anchors"], "anchors") {
            anchors[type] = HealthAnchor(rawValue: try integer(try object(anchor, "anchors.\(type)")["rawValue"], "anchors.\(type).rawValue"))
        }
        return SampleBatch(id: try uuid(batch["id"], "id"), samples: try samples(batch["samples"], "samples"), anchors: anchors)
    }

    private static func samples(_ any: Any?, _ path: String) throws(Malformed) -> [HealthSample] {
        guard let array = any as? [Any] else { throw Malformed(description: "\(path): not an array") }
        var samples: [HealthSample] = []
        samples.reserveCapacity(array.count)
        for (index, element) in array.enumerated() { samples.append(try sample(element, "\(path)[\(index)]")) }
        return samples
    }

    private static func sample(_ any: Any?, _ path: String) throws(Malformed) -> HealthSample {
        let fields = try object(any, path)
        let type: HealthType
        do { type = try HealthType(identifier: try text(fields["type"], "\(path).type")) } catch let error as Malformed { throw error } catch {
            throw Malformed(description: "\(path).type: \(error)")
        }
        var metadata: [String: String] = [:]
        for (key, value) in try object(fields["metadata"], "\(path).metadata") { metadata[key] = try text(value, "\(path).metadata.\(key)") }
        return HealthSample(
            id: try uuid(fields["id"], "\(path).id"), patient: PatientID(rawValue: try text(fields["patient"], "\(path).patient")),
            type: type, value: try value(fields["value"], "\(path).value"),
            start: Date(timeIntervalSinceReferenceDate: try double(fields["start"], "\(path).start")),
            end: Date(timeIntervalSinceReferenceDate: try double(fields["end"], "\(path).end")),
            device: try fields["device"].map { value throws(Malformed) in try text(value, "\(path).device") },
            source: try fields["source"].map { value throws(Malformed) in try text(value, "\(path).source") },
            metadata: metadata)
    }

    private static func value(_ any: Any?, _ path: String) throws(Malformed) -> HealthSample.Value {
        let wrapper = try object(any, path)
        guard wrapper.count == 1, let (kind, payload) = wrapper.first else { throw Malformed(description: "\(path): not one case") }
        let inner = try object(payload, "\(path).\(kind)")["_0"]
        switch kind {
        case "quantity":
            let quantity = try object(inner, "\(path).quantity._0")
            let symbol = try text(quantity["unit"], "\(path).quantity._0.unit")
            do {
                return .quantity(HealthQuantity(try double(quantity["value"], "\(path).quantity._0.value"), try HealthUnit(parsing: symbol)))
            } catch let error as Malformed { throw error } catch {
                throw Malformed(description: "\(path).quantity._0.unit: \(error)")
            }
        case "category":
            return .category(Int(try integer(inner, "\(path).category._0")))
        case "correlation":
            return .correlation(try samples(inner, "\(path).correlation._0"))
        case "electrocardiogram":
            let ecg = try object(inner, "\(path).electrocardiogram._0")
            guard let voltages = ecg["voltages"] as? [Any] else { throw Malformed(description: "\(path).electrocardiogram._0.voltages: not an array") }
            let unit: HealthUnit
            do { unit = try HealthUnit(parsing: try text(ecg["unit"], "\(path).electrocardiogram._0.unit")) } catch let error as Malformed { throw error } catch {
                throw Malformed(description: "\(path).electrocardiogram._0.unit: \(error)")
            }
            var values: [Double] = []
            values.reserveCapacity(voltages.count)
            for (index, voltage) in voltages.enumerated() { values.append(try double(voltage, "\(path).electrocardiogram._0.voltages[\(index)]")) }
            return .electrocardiogram(Electrocardiogram(
                samplingFrequency: try double(ecg["samplingFrequency"], "\(path).electrocardiogram._0.samplingFrequency"),
                lead: try text(ecg["lead"], "\(path).electrocardiogram._0.lead"), voltages: values, unit: unit,
                averageHeartRate: try ecg["averageHeartRate"].map { value throws(Malformed) in try double(value, "\(path).electrocardiogram._0.averageHeartRate") }))
        default:
            throw Malformed(description: "\(path): unknown case '\(kind)'")
        }
    }

    private static func object(_ any: Any?, _ path: String) throws(Malformed) -> [String: Any] {
        guard let object = any as? [String: Any] else { throw Malformed(description: "\(path): not an object") }
        return object
    }

    private static func text(_ any: Any?, _ path: String) throws(Malformed) -> String {
        guard let text = any as? String else { throw Malformed(description: "\(path): not a string") }
        return text
    }

    private static func double(_ any: Any?, _ path: String) throws(Malformed) -> Double {
        guard let number = any as? NSNumber else { throw Malformed(description: "\(path): not a number") }
        return number.doubleValue
    }

    private static func integer(_ any: Any?, _ path: String) throws(Malformed) -> Int64 {
        let value = try double(any, path)
        guard let whole = Int64(exactly: value) else { throw Malformed(description: "\(path): not a whole number") }
        return (any as? NSNumber)?.int64Value ?? whole
    }

    private static func uuid(_ any: Any?, _ path: String) throws(Malformed) -> UUID {
        guard let id = UUID(uuidString: try text(any, path)) else { throw Malformed(description: "\(path): not a UUID") }
        return id
    }
}
