import Foundation
import PostgresNIO
import SADEHealth
import SADEPostgres

/// A batch of samples as rows, in the order they take change numbers (a correlation,
/// then its members), written with multi-row `INSERT`s of at most ``rowsPerStatement``
/// rows, so a batch of 1,000 samples is one round trip, not 1,000.
struct PostgresSampleRows {
    private struct Row {
        var stored: StoredSample
        /// The position of the correlation this row is a member of.
        var parent: Int?
        var electrocardiogram: Electrocardiogram?
    }

    /// Rows per `INSERT`: 13 parameters each, well inside PostgreSQL's 65,535.
    static let rowsPerStatement = 1_000

    private var rows: [Row] = []
    /// The first row's change number, once taken.
    private var first: Int64 = 0

    /// The rows of validated samples.
    ///
    /// - Throws: ``HealthError/duplicate(_:)`` for a UUID given twice.
    init(_ samples: [HealthSample]) throws(HealthError) {
        var seen: Set<UUID> = []
        for sample in samples {
            try append(sample, parent: nil, seen: &seen)
        }
    }

    private mutating func append(_ sample: HealthSample, parent: Int?, seen: inout Set<UUID>) throws(HealthError) {
        guard seen.insert(sample.id).inserted else { throw .duplicate("sample \(sample.id.uuidString)") }
        var row = Row(stored: try StoredSample(sample), parent: parent)
        if case .electrocardiogram(let ecg) = sample.value { row.electrocardiogram = ecg }
        let position = rows.count
        rows.append(row)
        if case .correlation(let members) = sample.value {
            for member in members {
                try append(member, parent: position, seen: &seen)
            }
        }
    }

    /// How many rows, and so change numbers, the batch takes.
    var count: Int { rows.count }

    /// Gives the rows the change numbers from `first` on.
    mutating func number(from first: Int64) { self.first = first }

    /// Inserts the rows, their waveforms and chunks.
    ///
    /// - Throws: ``HealthError/duplicate(_:)`` for a UUID that is stored already.
    func insert(_ connection: PostgresConnection, _ database: PostgresPool) async throws {
        for start in stride(from: 0, to: rows.count, by: Self.rowsPerStatement) {
            let end = min(start + Self.rowsPerStatement, rows.count)
            var binds = PostgresBindings(capacity: (end - start) * 13)
            var values: [String] = []
            values.reserveCapacity(end - start)
            for index in start..<end {
                let row = rows[index], base = (index - start) * 13
                values.append("(" + (1...13).map { "$\(base + $0)" }.joined(separator: ",") + ")")
                binds.append(first + Int64(index))
                binds.append(row.stored.uuid)
                binds.append(row.stored.patient)
                binds.append(row.stored.type)
                binds.append(row.stored.value)
                binds.append(row.stored.unit)
                binds.append(row.stored.originalValue)
                binds.append(row.stored.start)
                binds.append(row.stored.end)
                binds.append(row.stored.device)
                binds.append(row.stored.source)
                binds.append(row.stored.metadata)
                binds.append(row.parent.map { first + Int64($0) })
            }
            let sql = """
                INSERT INTO sample (change_number, uuid, patient, type, value, unit, original_value, start, "end",
                                    device, source, metadata, correlation)
                VALUES \(values.joined(separator: ","))
                """
            do {
                try await connection.rows(PostgresQuery(unsafeSQL: sql, binds: binds), database)
            } catch let error as PSQLError where PostgresFailure(error).isUniqueViolation {
                throw HealthError.duplicate(Self.duplicate(in: PostgresFailure(error), error.serverInfo?[.detail]))
            }
        }
        for (index, row) in rows.enumerated() {
            if let ecg = row.electrocardiogram {
                try await insert(ecg, sample: first + Int64(index), connection, database)
            }
        }
    }

    /// "sample <UUID>" from PostgreSQL's detail, `Key (uuid)=(…) already exists.`
    private static func duplicate(in failure: PostgresFailure, _ detail: String?) -> String {
        guard let detail, let open = detail.range(of: ")=("), let close = detail.range(of: ")", range: open.upperBound..<detail.endIndex),
            let id = UUID(uuidString: String(detail[open.upperBound..<close.lowerBound]))
        else { return failure.message }
        return "sample \(id.uuidString)"
    }

    /// Stores an ECG's waveform in chunks (``ElectrocardiogramBytes``).
    private func insert(_ ecg: Electrocardiogram, sample changeNumber: Int64, _ connection: PostgresConnection, _ database: PostgresPool) async throws {
        try await connection.rows(
            """
            INSERT INTO electrocardiogram (sample, sampling_frequency, lead, unit, voltage_count, average_heart_rate)
            VALUES (\(changeNumber), \(ecg.samplingFrequency), \(ecg.lead), \(ecg.unit.symbol), \(ecg.voltages.count), \(ecg.averageHeartRate))
            """, database)
        for (index, start) in stride(from: 0, to: ecg.voltages.count, by: ElectrocardiogramBytes.chunkSize).enumerated() {
            let slice = ecg.voltages[start..<min(start + ElectrocardiogramBytes.chunkSize, ecg.voltages.count)]
            try await connection.rows(
                "INSERT INTO electrocardiogram_chunk (sample, chunk, voltages) VALUES (\(changeNumber), \(index), \(ElectrocardiogramBytes.encode(slice)))",
                database)
        }
    }
}
