import GRDB
import SADEHealth

extension SQLiteHealthStore {
    /// Grants a permission; granting one that exists changes nothing.
    ///
    /// - Throws: ``HealthError/invalidValue(field:reason:)`` naming `principal` for a
    ///   name that is empty or holds a control character, or `patient` for an unusable
    ///   identifier (``PatientID/validate(field:)``).
    public func grant(_ grant: AccessGrant) async throws(HealthError) {
        try grant.validate()
        try await write { db in try AccessGrantRows.insert(grant, db) }
    }

    /// Withdraws every permission of `principal` for `access`.
    public func revokeAll(_ access: AccessMode, from principal: Principal) async throws(HealthError) {
        // A name cut short at a NUL would be another principal's.
        try HealthText.validateIdentifier(principal.name, field: "principal")
        return try await write { db in try AccessGrantRows.deleteAll(access, of: principal, db) }
    }

    /// Whether `principal` may `access` samples of `type` of `patient`; for a
    /// correlation type, its member types must be covered too.
    public func isAuthorized(_ principal: Principal, to access: AccessMode, _ type: HealthType, of patient: PatientID) async throws(HealthError) -> Bool {
        try patient.validate()
        return try await policy(for: principal).allows(access, type, of: patient)
    }

    /// Every grant of `principal` (every grant when `nil`).
    public func grants(of principal: Principal? = nil) async throws(HealthError) -> [AccessGrant] {
        try await read { db in try AccessGrantRows.fetch(of: principal, db) }
    }

    /// The policy of `principal` as the database holds it now.
    func policy(for principal: Principal) async throws(HealthError) -> AccessPolicy {
        if principal.kind == .system { return AccessPolicy(principal, grants: []) }
        return AccessPolicy(principal, grants: try await grants(of: principal))
    }
}
