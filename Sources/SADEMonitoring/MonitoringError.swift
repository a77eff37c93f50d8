import SADEPostgres
import SADEHome

/// What went wrong in the monitoring application, in terms a client can act on; the
/// server maps each case to an HTTP status.
public enum MonitoringError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A value is missing or wrong (400); `field` names it.
    case invalid(field: String, reason: String)
    /// No credentials, bad credentials or an expired token (401).
    case unauthenticated(String)
    /// The caller may not do this (403).
    case forbidden(String)
    /// Nothing has this identifier (404).
    case notFound(String)
    /// The request contradicts what exists, e.g. a taken username (409).
    case conflict(String)
    /// The storage failed (500); the message is for logs.
    case storage(String)
    /// The database cannot be reached now (503); the client may try again.
    case unavailable(String)

    /// A sentence for people.
    public var description: String {
        switch self {
        case .invalid(let field, let reason): "\(field): \(reason)"
        case .unauthenticated(let message), .forbidden(let message), .notFound(let message), .conflict(let message),
            .storage(let message), .unavailable(let message):
            message
        }
    }
}

extension MonitoringError {
    /// A failure to open one of the system's stores: ``unavailable(_:)`` when its
    /// database cannot be reached, else ``storage(_:)``.
    init(opening what: String, _ error: any Error) {
        let message = "cannot open \(what): \(error)"
        switch error {
        case let failure as PostgresFailure where failure.isUnavailable: self = .unavailable(message)
        case AlertBookError.unavailable, MonitoringError.unavailable: self = .unavailable(message)
        case let error as HomeError:
            if case .unavailable = error { self = .unavailable(message) } else { self = .storage(message) }
        default: self = .storage(message)
        }
    }
}
