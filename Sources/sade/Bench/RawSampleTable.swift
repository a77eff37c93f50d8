import Foundation
// SQLite's C interface, as GRDB links it: the baseline must not pay for any wrapper.
import GRDBSQLite
import SADEHealth

/// The `sample` table of a health database driven directly through SQLite's C
/// interface, with the store's own pragmas: what a batched insert costs at the least.
final class RawSampleTable {
    private var connection: OpaquePointer?
    private var statement: OpaquePointer?

    /// Opens the database at `path` (its schema made by the store).
    init(path: String) throws {
        guard sqlite3_open(path, &connection) == SQLITE_OK else { throw BenchError.unexpected("cannot open \(path)") }
        try execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA cache_size = -65536; PRAGMA wal_autocheckpoint = 10000; PRAGMA foreign_keys = ON")
        let sql = """
            INSERT INTO sample (change_number, uuid, patient, type, value, unit, original_value, start, "end",
                                device, source, metadata, correlation)
            VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, NULL, NULL, NULL)
            """
        guard sqlite3_prepare_v2(connection, sql, -1, &statement, nil) == SQLITE_OK else { throw failure("prepare") }
    }

    deinit {
        sqlite3_finalize(statement)
        sqlite3_close(connection)
    }

    /// Inserts a batch of quantity samples in one transaction, numbering them from
    /// `changeNumber` on.
    func insert(_ batch: [HealthSample], from changeNumber: inout Int64) throws {
        try execute("BEGIN IMMEDIATE")
        for sample in batch {
            guard let quantity = sample.quantity, case .quantity(let type) = sample.type else { continue }
            changeNumber += 1
            sqlite3_reset(statement)
            sqlite3_bind_int64(statement, 1, changeNumber)
            _ = withUnsafeBytes(of: sample.id.uuid) { sqlite3_bind_blob(statement, 2, $0.baseAddress, 16, transient) }
            sqlite3_bind_text(statement, 3, sample.patient.rawValue, -1, transient)
            sqlite3_bind_text(statement, 4, type.rawValue, -1, transient)
            sqlite3_bind_double(statement, 5, quantity.value)
            sqlite3_bind_text(statement, 6, quantity.unit.symbol, -1, transient)
            sqlite3_bind_double(statement, 7, sample.start.timeIntervalSinceReferenceDate)
            sqlite3_bind_double(statement, 8, sample.end.timeIntervalSinceReferenceDate)
            if let device = sample.device { sqlite3_bind_text(statement, 9, device, -1, transient) } else { sqlite3_bind_null(statement, 9) }
            guard sqlite3_step(statement) == SQLITE_DONE else { throw failure("insert") }
        }
        try execute("COMMIT")
    }

    private func execute(_ sql: String) throws {
        guard sqlite3_exec(connection, sql, nil, nil, nil) == SQLITE_OK else { throw failure(sql) }
    }

    private func failure(_ what: String) -> BenchError {
        .unexpected("SQLite \(what): \(String(cString: sqlite3_errmsg(connection)))")
    }
}

/// `SQLITE_TRANSIENT`: SQLite copies the bound value (a C macro Swift cannot import).
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
