import PostgresNIO
import _ConnectionPoolModule

/// A database error in words, with what callers decide on: PostgreSQL's SQLSTATE
/// (`23505` a unique violation, …) and whether the server could not be reached, so
/// that a request can fail fast with "service unavailable" and be tried again.
public struct PostgresFailure: Error, Sendable, CustomStringConvertible {
    /// PostgreSQL's five-character error code, when the server sent one.
    public var sqlState: String?
    /// What went wrong.
    public var message: String
    /// The constraint a violation names.
    public var constraint: String?
    /// True when the server is unreachable, shutting down or refusing connections.
    public var isUnavailable: Bool

    /// A failure in words.
    public init(sqlState: String? = nil, message: String, constraint: String? = nil, isUnavailable: Bool = false) {
        self.sqlState = sqlState
        self.message = message
        self.constraint = constraint
        self.isUnavailable = isUnavailable
    }

    /// A failure to reach the server.
    public init(unavailable message: String) {
        self.init(message: message, isUnavailable: true)
    }

    /// Reads any error thrown by PostgresNIO (a transaction's error unwrapped).
    public init(_ error: any Error) {
        switch error {
        case let failure as PostgresFailure:
            self = failure
        case let error as PostgresTransactionError:
            self.init(error.closureError ?? error.commitError ?? error.beginError ?? error.rollbackError ?? CancellationError())
        case let error as PSQLError:
            let sqlState = error.serverInfo?[.sqlState]
            let unreachableCodes: Set<PSQLError.Code> = [.connectionError, .serverClosedConnection, .clientClosedConnection, .poolClosed, .uncleanShutdown]
            // Class 08 is a connection exception; 57P01–57P03 an administrator's or a
            // crash's shutdown and "cannot connect now" (the server starting up).
            self.init(
                sqlState: sqlState,
                message: error.serverInfo?[.message] ?? error.underlying.map { "\(error.code): \($0)" } ?? "\(error.code)",
                constraint: error.serverInfo?[.constraintName],
                isUnavailable: unreachableCodes.contains(error.code) || (sqlState.map { $0.hasPrefix("08") || $0.hasPrefix("57P") } ?? false))
        case let error as ConnectionPoolError:
            // The pool gave up making connections (its circuit breaker) or was shut down.
            self.init(message: "connection pool: \(error)", isUnavailable: true)
        case is CancellationError:
            self.init(message: "cancelled")
        default:
            self.init(message: "\(error)")
        }
    }

    /// A unique constraint was violated.
    public var isUniqueViolation: Bool { sqlState == "23505" }

    public var description: String { sqlState.map { "\(message) (SQLSTATE \($0))" } ?? message }
}
