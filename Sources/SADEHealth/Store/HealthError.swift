import Foundation

/// Why a health-store operation was refused. Every case names what is wrong so a
/// user (or an API client) can fix it.
public enum HealthError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A field holds a value that cannot be right, e.g. `value` of SpO2 above 100 %.
    case invalidValue(field: String, reason: String)
    /// A unit symbol that is not known, e.g. `beats`.
    case unknownUnit(String)
    /// A type identifier that is not known.
    case unknownType(String)
    /// A quantity in one unit cannot be expressed in the other (e.g. `kg` as `mmHg`).
    case incompatibleUnits(from: String, to: String)
    /// The principal may not do this with this type for this patient.
    case notAuthorized(principal: Principal, access: AccessMode, type: String, patient: PatientID)
    /// No sample, patient or record with this identifier.
    case notFound(String)
    /// The record exists already (e.g. a sample with the same UUID).
    case duplicate(String)
    /// The storage backend failed; the text says how.
    case storage(String)
    /// The database cannot be reached now (it is down or restarting); trying again
    /// later may succeed, and nothing was changed.
    case unavailable(String)

    /// A sentence saying what went wrong.
    public var description: String {
        switch self {
        case .invalidValue(let field, let reason): "invalid \(field): \(reason)"
        case .unknownUnit(let symbol): "unknown unit '\(symbol)'"
        case .unknownType(let identifier): "unknown health type '\(identifier)'"
        case .incompatibleUnits(let from, let to): "a quantity in \(from) cannot be converted to \(to)"
        case .notAuthorized(let principal, let access, let type, let patient):
            "\(principal) may not \(access.rawValue) \(type) of patient \(patient)"
        case .notFound(let what): "not found: \(what)"
        case .duplicate(let what): "already exists: \(what)"
        case .storage(let reason): "storage error: \(reason)"
        case .unavailable(let reason): "database unavailable: \(reason)"
        }
    }
}
