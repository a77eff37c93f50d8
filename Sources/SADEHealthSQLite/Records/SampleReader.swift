import Foundation
import GRDB
import SADEHealth

/// Turns `sample` rows back into ``HealthSample``s: the quantity in the unit it was
/// saved in, a correlation with its members, an ECG with its waveform.
struct SampleReader {
    /// The columns every sample query selects, in the order ``sample(_:)`` reads them.
    static let columns = #"change_number, uuid, patient, type, value, unit, original_value, start, "end", device, source, metadata, correlation"#
    /// The same columns of the table aliased `s`.
    static let qualifiedColumns = columns.split(separator: ", ").map { "s.\($0)" }.joined(separator: ", ")

    private let db: Database
    private var decoder = StoredSampleDecoder()

    /// A reader for one database access.
    init(_ db: Database) { self.db = db }

    /// The samples `sql` selects (``columns`` first), complete with members and waveforms.
    mutating func fetch(_ sql: String, arguments: StatementArguments = []) throws -> [HealthSample] {
        try fetchNumbered(sql, arguments: arguments).samples
    }

    /// The samples `sql` selects with their change numbers.
    mutating func fetchNumbered(_ sql: String, arguments: StatementArguments = []) throws -> (samples: [HealthSample], changeNumbers: [Int64]) {
        var samples: [HealthSample] = []
        var changeNumbers: [Int64] = []
        var correlations: [Int64: Int] = [:]
        let rows = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
        while let row = try rows.next() {
            let (changeNumber, sample) = try self.sample(row)
            changeNumbers.append(changeNumber)
            switch sample.type {
            case .correlation:
                correlations[changeNumber] = samples.count
                samples.append(sample)
            case .electrocardiogram:
                var sample = sample
                sample.value = .electrocardiogram(try ElectrocardiogramChunks.fetch(sample: changeNumber, db))
                samples.append(sample)
            case .quantity, .category:
                samples.append(sample)
            }
        }
        if !correlations.isEmpty {
            try attachMembers(to: &samples, at: correlations)
        }
        return (samples, changeNumbers)
    }

    /// Fills each correlation's members, in the order they were saved.
    private mutating func attachMembers(to samples: inout [HealthSample], at positions: [Int64: Int]) throws {
        var members: [Int64: [HealthSample]] = [:]
        let ids = String(decoding: try JSONEncoder().encode(Array(positions.keys)), as: UTF8.self)
        let rows = try Row.fetchCursor(
            db.cachedStatement(
                sql: "SELECT \(Self.columns) FROM sample WHERE correlation IN (SELECT value FROM json_each(?)) ORDER BY change_number"),
            arguments: [ids])
        while let row = try rows.next() {
            let correlation: Int64 = try row.decode(atIndex: 12)
            members[correlation, default: []].append(try sample(row).sample)
        }
        for (changeNumber, position) in positions {
            samples[position].value = .correlation(members[changeNumber] ?? [])
        }
    }

    /// One row as a sample; a correlation without members and an ECG without voltages.
    mutating func sample(_ row: Row) throws -> (changeNumber: Int64, sample: HealthSample) {
        guard let id: UUID = try row.decode(atIndex: 1) else { throw HealthError.storage("a sample row has no valid UUID") }
        let stored = StoredSample(
            uuid: id, patient: try row.decode(atIndex: 2), type: try row.decode(atIndex: 3), value: try row.decode(atIndex: 4),
            unit: try row.decode(atIndex: 5), originalValue: try row.decode(atIndex: 6), start: try row.decode(atIndex: 7),
            end: try row.decode(atIndex: 8), device: try row.decode(atIndex: 9), source: try row.decode(atIndex: 10),
            metadata: try row.decode(atIndex: 11))
        return (try row.decode(atIndex: 0), try decoder.sample(stored))
    }
}
