import Foundation
import GRDB
import SADEHealth

/// Inserts samples inside one write transaction with cached statements: a row per
/// quantity or category sample, a row per correlation plus rows for its members,
/// and for an ECG a row plus its waveform in ``ElectrocardiogramChunks``.
///
/// Each row takes the next change number, so a batch appears in anchored queries in
/// the order it was given.
struct SampleWriter {
    private let db: Database
    private let insertSample: SampleRowInsert
    /// The change number the next row takes.
    private(set) var nextChangeNumber: Int64

    /// Prepares the statements; call inside a write transaction.
    init(_ db: Database) throws {
        self.db = db
        insertSample = try SampleRowInsert(db)
        nextChangeNumber = try Self.lastChangeNumber(db) + 1
    }

    /// The largest change number given so far, to a sample or a tombstone (0 for none).
    static func lastChangeNumber(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(
            db,
            sql: """
                SELECT MAX(IFNULL((SELECT MAX(change_number) FROM sample), 0),
                           IFNULL((SELECT MAX(change_number) FROM tombstone), 0))
                """) ?? 0
    }

    /// Inserts a validated sample (and its members or waveform); returns its change number.
    ///
    /// - Throws: ``HealthError/duplicate(_:)`` when a sample with its UUID exists.
    @discardableResult
    mutating func insert(_ sample: HealthSample, correlation: Int64? = nil) throws -> Int64 {
        let changeNumber = nextChangeNumber
        nextChangeNumber += 1
        let row = try StoredSample(sample)
        do {
            try insertSample.insert(
                SampleRowInsert.Row(
                    changeNumber: changeNumber, uuid: row.uuid, patient: row.patient, type: row.type, value: row.value, unit: row.unit,
                    originalValue: row.originalValue, start: row.start, end: row.end, device: row.device, source: row.source,
                    metadata: row.metadata, correlation: correlation))
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            throw HealthError.duplicate("sample \(sample.id.uuidString)")
        }
        switch sample.value {
        case .correlation(let members):
            for member in members {
                try insert(member, correlation: changeNumber)
            }
        case .electrocardiogram(let ecg):
            try ElectrocardiogramChunks.insert(ecg, sample: changeNumber, db)
        case .quantity, .category:
            break
        }
        return changeNumber
    }
}
