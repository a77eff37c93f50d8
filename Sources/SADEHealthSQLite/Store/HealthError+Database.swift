import GRDB
import SADEHealth

extension HealthError {
    /// Maps an error thrown inside a database access: a ``HealthError`` thrown by our
    /// own code passes through; a GRDB or SQLite error becomes ``HealthError/storage(_:)``
    /// (a unique constraint on a sample's UUID becomes ``HealthError/duplicate(_:)``).
    init(database error: any Error, while doing: String) {
        switch error {
        case let error as HealthError:
            self = error
        case let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE:
            self = .duplicate(error.message ?? "a record with this identifier")
        case let error as DatabaseError:
            self = .storage("\(doing): \(error.message ?? error.description) (SQLite code \(error.extendedResultCode.rawValue))")
        case is CancellationError:
            self = .storage("\(doing): cancelled")
        default:
            self = .storage("\(doing): \(error)")
        }
    }
}
