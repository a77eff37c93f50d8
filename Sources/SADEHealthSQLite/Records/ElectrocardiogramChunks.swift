import Foundation
import GRDB
import SADEHealth

/// An ECG waveform's voltages stored as BLOBs of ``chunkSize`` little-endian Float64
/// values each (``ElectrocardiogramBytes``) — a 30 s recording at 512 Hz is 4 rows, never 15,360 — so every
/// voltage reads back bit for bit.
enum ElectrocardiogramChunks {
    /// Voltages per BLOB row (32 KiB).
    static let chunkSize = ElectrocardiogramBytes.chunkSize

    /// Stores the waveform of the sample with `changeNumber`.
    static func insert(_ ecg: Electrocardiogram, sample changeNumber: Int64, _ db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO electrocardiogram (sample, sampling_frequency, lead, unit, voltage_count, average_heart_rate)
                VALUES (?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [changeNumber, ecg.samplingFrequency, ecg.lead, ecg.unit.symbol, ecg.voltages.count, ecg.averageHeartRate])
        let insertChunk = try db.cachedStatement(sql: "INSERT INTO electrocardiogram_chunk (sample, chunk, voltages) VALUES (?, ?, ?)")
        for (index, start) in stride(from: 0, to: ecg.voltages.count, by: chunkSize).enumerated() {
            let slice = ecg.voltages[start..<min(start + chunkSize, ecg.voltages.count)]
            try insertChunk.execute(arguments: [changeNumber, index, ElectrocardiogramBytes.encode(slice)])
        }
    }

    /// The waveform of the sample with `changeNumber`.
    static func fetch(sample changeNumber: Int64, _ db: Database) throws -> Electrocardiogram {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(
                    sql: "SELECT sampling_frequency, lead, unit, voltage_count, average_heart_rate FROM electrocardiogram WHERE sample = ?"),
                arguments: [changeNumber])
        else { throw HealthError.storage("the waveform of ECG sample \(changeNumber) is missing") }
        let count: Int = try row.decode(atIndex: 3)
        var voltages: [Double] = []
        voltages.reserveCapacity(count)
        let chunks = try Row.fetchCursor(
            db.cachedStatement(sql: "SELECT voltages FROM electrocardiogram_chunk WHERE sample = ? ORDER BY chunk"), arguments: [changeNumber])
        while let chunk = try chunks.next() {
            try chunk.withUnsafeData(atIndex: 0) { data in try ElectrocardiogramBytes.decode(data ?? Data(), into: &voltages) }
        }
        guard voltages.count == count else {
            throw HealthError.storage("the waveform of ECG sample \(changeNumber) has \(voltages.count) of \(count) voltages")
        }
        return Electrocardiogram(
            samplingFrequency: try row.decode(atIndex: 0), lead: try row.decode(atIndex: 1),
            voltages: voltages, unit: try HealthUnit(parsing: try row.decode(atIndex: 2)), averageHeartRate: try row.decode(atIndex: 4))
    }
}
