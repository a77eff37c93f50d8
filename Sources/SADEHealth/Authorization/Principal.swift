/// Who reads or writes health data: an agent, an app or a user
/// (SADE4Health's `HealthKitSetUpAssistant` asks for this permission).
public struct Principal: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The kind of principal.
    public enum Kind: String, Hashable, Sendable, Codable {
        case agent, app, user, system
    }

    /// The kind.
    public var kind: Kind
    /// Its name, e.g. `CollectorAgent@hospital` or `nurse1`.
    public var name: String

    /// Creates a principal.
    public init(_ kind: Kind, _ name: String) {
        self.kind = kind
        self.name = name
    }

    /// An agent.
    public static func agent(_ name: String) -> Principal { Principal(.agent, name) }
    /// An application.
    public static func app(_ name: String) -> Principal { Principal(.app, name) }
    /// A person.
    public static func user(_ name: String) -> Principal { Principal(.user, name) }
    /// The platform itself: may do everything (migrations, imports, tests).
    public static let system = Principal(.system, "system")

    /// E.g. `agent CollectorAgent`.
    public var description: String { "\(kind.rawValue) \(name)" }
}

/// Reading or writing (HealthKit: read and share).
public enum AccessMode: String, Hashable, Sendable, Codable, CaseIterable {
    case read, share
}

/// A permission: a principal may read or share some types of some patients.
public struct AccessGrant: Hashable, Sendable, Codable {
    /// Who.
    public var principal: Principal
    /// Read or share.
    public var access: AccessMode
    /// Which types; `nil` means all.
    public var types: Set<HealthType>?
    /// Which patients; `nil` means all.
    public var patients: Set<PatientID>?

    /// Creates a grant.
    public init(_ principal: Principal, _ access: AccessMode, types: Set<HealthType>? = nil, patients: Set<PatientID>? = nil) {
        self.principal = principal
        self.access = access
        self.types = types
        self.patients = patients
    }

    /// Whether the grant covers `type` of `patient` for `access`.
    public func covers(_ access: AccessMode, _ type: HealthType, of patient: PatientID) -> Bool {
        self.access == access && (types?.contains(type) ?? true) && (patients?.contains(patient) ?? true)
    }
}
