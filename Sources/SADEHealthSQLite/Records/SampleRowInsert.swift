import Foundation
import GRDB
// The SQLite C interface that GRDB is built on, for the one statement that runs a
// million times: binding through `StatementArguments` boxes every value in an
// existential, and a UUID in a `Data`, which costs more than SQLite's own work.
// (GRDB documents this use of raw statement pointers: "Raw SQLite Pointers".)
import GRDBSQLite

/// The `INSERT INTO sample` statement, bound column by column with the SQLite C
/// functions. The statement itself is GRDB's cached one, so GRDB owns its lifetime.
struct SampleRowInsert {
    /// The values of one row, in the statement's column order.
    struct Row {
        var changeNumber: Int64
        var uuid: UUID
        var patient: String
        var type: String
        var value: Double?
        var unit: String?
        var originalValue: Double?
        var start: Double
        var end: Double
        var device: String?
        var source: String?
        var metadata: String?
        var correlation: Int64?
    }

    private let db: Database
    private let statement: Statement

    /// Prepares (or takes from GRDB's cache) the statement.
    init(_ db: Database) throws {
        self.db = db
        statement = try db.cachedStatement(
            sql: """
                INSERT INTO sample (change_number, uuid, patient, type, value, unit, original_value, start, "end",
                                    device, source, metadata, correlation)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
    }

    /// Inserts one row.
    ///
    /// - Throws: a `DatabaseError` with SQLite's extended result code, e.g.
    ///   `SQLITE_CONSTRAINT_UNIQUE` for a UUID that is stored already.
    func insert(_ row: Row) throws {
        let handle = statement.sqliteStatement
        sqlite3_reset(handle)
        var status = sqlite3_bind_int64(handle, 1, row.changeNumber)
        status |= withUnsafeBytes(of: row.uuid.uuid) { sqlite3_bind_blob(handle, 2, $0.baseAddress, 16, transient) }
        status |= bind(row.patient, 3)
        status |= bind(row.type, 4)
        status |= bind(row.value, 5)
        status |= bind(row.unit, 6)
        status |= bind(row.originalValue, 7)
        status |= sqlite3_bind_double(handle, 8, row.start)
        status |= sqlite3_bind_double(handle, 9, row.end)
        status |= bind(row.device, 10)
        status |= bind(row.source, 11)
        status |= bind(row.metadata, 12)
        status |= row.correlation.map { sqlite3_bind_int64(handle, 13, $0) } ?? sqlite3_bind_null(handle, 13)
        guard status == SQLITE_OK else { throw error(sqlite3_errcode(db.sqliteConnection)) }
        let result = sqlite3_step(handle)
        sqlite3_reset(handle)
        guard result == SQLITE_DONE else { throw error(sqlite3_extended_errcode(db.sqliteConnection)) }
    }

    private func bind(_ text: String?, _ index: Int32) -> Int32 {
        guard let text else { return sqlite3_bind_null(statement.sqliteStatement, index) }
        return sqlite3_bind_text(statement.sqliteStatement, index, text, -1, transient)
    }

    private func bind(_ number: Double?, _ index: Int32) -> Int32 {
        guard let number else { return sqlite3_bind_null(statement.sqliteStatement, index) }
        return sqlite3_bind_double(statement.sqliteStatement, index, number)
    }

    private func error(_ code: Int32) -> DatabaseError {
        DatabaseError(
            resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: statement.sql)
    }
}

/// SQLite copies a value bound with this destructor (`SQLITE_TRANSIENT`, a C macro
/// Swift cannot import), so Swift's temporary buffers may go right after binding.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
