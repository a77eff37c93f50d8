import Foundation
import SADEPostgres

/// Why the ``AlertBook`` refused a request.
public enum AlertBookError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No alert has this id (HTTP 404).
    case unknownAlert(UUID)
    /// The alert was acknowledged before (HTTP 409); the record says by whom and when.
    case alreadyAcknowledged(AlertRecord)
    /// The database or the outbox failed.
    case storage(String)
    /// The shared database cannot be reached (HTTP 503): try again shortly.
    case unavailable(String)

    /// A sentence saying what went wrong.
    public var description: String {
        switch self {
        case .unknownAlert(let id): "no alert with id \(id.uuidString.lowercased())"
        case .alreadyAcknowledged(let record):
            "alert \(record.id.uuidString.lowercased()) was already acknowledged by \(record.acknowledgedBy ?? "someone")"
        case .storage(let reason): "the alerts could not be read or written: \(reason)"
        case .unavailable(let reason): "the alerts' database is unavailable: \(reason)"
        }
    }
}

extension AlertBookError {
    /// A failure of the outbox the book reads escalations from: ``unavailable(_:)`` when
    /// its database cannot be reached.
    init(outbox error: any Error) {
        if let failure = error as? PostgresFailure, failure.isUnavailable {
            self = .unavailable(failure.description)
        } else {
            self = .storage("\(error)")
        }
    }
}

/// Which alerts to list.
public enum AlertStatus: String, Hashable, Sendable, Codable, CaseIterable {
    /// Not acknowledged yet.
    case open
    /// Acknowledged.
    case acknowledged
    /// Every alert.
    case all
}
