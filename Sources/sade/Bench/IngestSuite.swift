import Foundation
import SADEHealth
import SADEHealthSQLite

/// `ingest`: batches of vital-sign samples saved by the SQLite health store and
/// evaluated by the anomaly detector, against a raw batched SQLite insert of the
/// same rows into the same schema.
struct IngestSuite: BenchSuite {
    let name = "ingest"
    let workload = "batches of 100 vital-sign samples saved (SQLite file, WAL) and evaluated (anomalies, NEWS2); baseline: raw batched SQLite insert"

    /// Samples per batch.
    static let batchSize = 100

    func run(in context: BenchContext) async throws -> [BenchFigure] {
        let count = context.size(100_000, quick: 2_000)
        let batches = Self.batches(count)
        let ours = try await context.measure { try await Self.saveAndEvaluate(batches) }
        let raw = try await context.measure { try await Self.rawInsert(batches) }
        return [
            context.figure(
                "samples/s (save + evaluate)", ours["rate"], unit: "samples/s", baseline: raw["rate"], baselineName: "raw SQLite",
                target: "≥ 100,000; ≥ 0.5 × raw"),
            context.figure("samples/s (save only)", ours["save"], unit: "samples/s", baseline: raw["rate"], baselineName: "raw SQLite"),
        ]
    }

    /// `count` samples for 100 patients, four vital signs each in turn, a reading a
    /// second, one in fifty out of the typical range, cut into batches.
    static func batches(_ count: Int) -> [[HealthSample]] {
        let types: [(QuantityType, normal: Double, abnormal: Double)] = [
            (.heartRate, 72, 135), (.oxygenSaturation, 97, 88), (.respiratoryRate, 16, 28), (.bodyTemperature, 36.8, 39.5),
        ]
        let start = Date(timeIntervalSince1970: 1_760_000_000)
        let samples = (0..<count).map { index in
            let (type, normal, abnormal) = types[index % types.count]
            return HealthSample.quantity(
                type, index % 50 == 49 ? abnormal : normal, patient: PatientID(rawValue: "p-\(index / types.count % 100)"),
                at: start.addingTimeInterval(Double(index) / 100), device: "monitor")
        }
        return stride(from: 0, to: count, by: batchSize).map { Array(samples[$0..<min($0 + batchSize, count)]) }
    }

    /// One run: a fresh store in a temporary directory; each batch saved, then evaluated.
    private static func saveAndEvaluate(_ batches: [[HealthSample]]) async throws -> [String: Double] {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try SQLiteHealthStore(directory: directory.path)
        let detector = AnomalyDetector()
        var saving = Duration.zero
        let start = BenchClock.clock.now
        var anomalies = 0
        for batch in batches {
            let before = BenchClock.clock.now
            try await store.save(batch, as: .system)
            saving += BenchClock.clock.now - before
            anomalies += await detector.evaluate(batch, patients: [:], at: batch.last!.end).count
        }
        let seconds = (BenchClock.clock.now - start).seconds
        guard anomalies > 0 else { throw BenchError.unexpected("no anomaly found in samples with abnormal values") }
        let count = Double(batches.reduce(0) { $0 + $1.count })
        return ["rate": count / seconds, "save": count / saving.seconds]
    }

    /// The baseline: the same rows inserted with SQLite's C interface, one prepared
    /// statement, one transaction per batch, into a database with the store's schema.
    private static func rawInsert(_ batches: [[HealthSample]]) async throws -> [String: Double] {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        _ = try SQLiteHealthStore(directory: directory.path)  // creates the schema, then closes
        let database = try RawSampleTable(path: directory.path + "/" + SQLiteHealthStore.fileName)
        let seconds = try await BenchClock.seconds {
            var changeNumber: Int64 = 0
            for batch in batches { try database.insert(batch, from: &changeNumber) }
        }
        return ["rate": Double(batches.reduce(0) { $0 + $1.count }) / seconds]
    }
}

/// A directory under the system's temporary directory, removed by ``remove()``.
struct TemporaryDirectory {
    /// Its path.
    let path: String

    /// Creates a fresh directory.
    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("sade-bench-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Deletes it with its contents.
    func remove() { try? FileManager.default.removeItem(atPath: path) }
}
