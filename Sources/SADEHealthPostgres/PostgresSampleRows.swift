import Foundation
import NIOCore
import PostgresNIO
import SADEHealth
import SADEPostgres

/// A batch of samples as rows, in the order they take change numbers (a correlation,
/// then its members), written with one `COPY`, so a batch of 1,000 samples is one
/// round trip, not 1,000.
package struct PostgresSampleRows {
    private struct Row {
        var stored: StoredSample
        /// The position of the correlation this row is a member of.
        var parent: Int?
        var electrocardiogram: Electrocardiogram?
    }

    private var rows: [Row] = []
    /// The first row's change number, once taken.
    private var first: Int64 = 0

    /// The rows of validated samples.
    ///
    /// - Throws: ``HealthError/duplicate(_:)`` for a UUID given twice.
    package init(_ samples: [HealthSample]) throws(HealthError) {
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

    /// The sample table's columns, in the order of ``copyText(from:)``.
    package static let columns = [
        "change_number", "uuid", "patient", "type", "value", "unit", "original_value", "start", "end", "device", "source", "metadata",
        "correlation",
    ]

    /// Inserts the rows with one `COPY … FROM STDIN` (a round trip however large the
    /// batch, and no statement to parse or parameters to bind), then the waveforms.
    ///
    /// - Throws: ``HealthError/duplicate(_:)`` for a UUID that is stored already.
    func insert(_ connection: PostgresConnection, _ database: PostgresPool) async throws {
        let text = copyText(from: first)
        do {
            try await connection.copyFrom(table: "sample", columns: Self.columns, logger: database.logger) { writer in
                try await writer.write(ByteBuffer(string: text))
            }
        } catch let error as PSQLError where PostgresFailure(error).isUniqueViolation {
            throw HealthError.duplicate(Self.duplicate(in: PostgresFailure(error), error.serverInfo?[.detail]))
        }
        for (index, row) in rows.enumerated() {
            if let ecg = row.electrocardiogram {
                try await insert(ecg, sample: first + Int64(index), connection, database)
            }
        }
    }

    /// The rows in `COPY`'s text format, numbered from `first`: a tab between columns,
    /// `\N` for NULL, backslash, tab and line breaks escaped. A `Double` is written in
    /// Swift's shortest form that reads back to the same bits.
    package func copyText(from first: Int64) -> String {
        var text = ""
        text.reserveCapacity(rows.count * 160)
        for (index, row) in rows.enumerated() {
            let stored = row.stored
            let fields: [String?] = [
                String(first + Int64(index)), stored.uuid.uuidString, stored.patient, stored.type, stored.value.map { "\($0)" }, stored.unit,
                stored.originalValue.map { "\($0)" }, "\(stored.start)", "\(stored.end)", stored.device, stored.source, stored.metadata,
                row.parent.map { String(first + Int64($0)) },
            ]
            for (column, field) in fields.enumerated() {
                if column > 0 { text += "\t" }
                text += field.map(Self.escaped) ?? "\\N"
            }
            text += "\n"
        }
        return text
    }

    /// A value escaped for `COPY`'s text format.
    private static func escaped(_ value: String) -> String {
        guard value.utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") })
        else { return value }
        var escaped = ""
        for character in value.unicodeScalars {
            switch character {
            case "\\": escaped += "\\\\"
            case "\t": escaped += "\\t"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
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
