import PostgresNIO
import SADEHealth

extension PostgresHealthStore {
    /// Grants a permission; granting one that exists changes nothing.
    ///
    /// - Throws: ``HealthError/invalidValue(field:reason:)`` naming `principal` for a
    ///   name that is empty or holds a control character, or `patient` for an unusable identifier.
    public func grant(_ grant: AccessGrant) async throws(HealthError) {
        try grant.validate()
        try await write { [database] connection in
            try await connection.rows(
                """
                INSERT INTO access_grant (principal_kind, principal_name, access, types, patients)
                VALUES (\(grant.principal.kind.rawValue), \(grant.principal.name), \(grant.access.rawValue), \(grant.typesColumn), \(grant.patientsColumn))
                ON CONFLICT DO NOTHING
                """, database)
        }
    }

    /// Withdraws every permission of `principal` for `access`.
    public func revokeAll(_ access: AccessMode, from principal: Principal) async throws(HealthError) {
        try HealthText.validateIdentifier(principal.name, field: "principal")
        try await write { [database] connection in
            try await connection.rows(
                """
                DELETE FROM access_grant
                WHERE principal_kind = \(principal.kind.rawValue) AND principal_name = \(principal.name) AND access = \(access.rawValue)
                """, database)
        }
    }

    /// Whether `principal` may `access` samples of `type` of `patient`; for a
    /// correlation type, its member types must be covered too.
    public func isAuthorized(_ principal: Principal, to access: AccessMode, _ type: HealthType, of patient: PatientID) async throws(HealthError) -> Bool {
        try patient.validate()
        return try await policy(for: principal).allows(access, type, of: patient)
    }

    /// Every grant of `principal` (every grant when `nil`).
    public func grants(of principal: Principal? = nil) async throws(HealthError) -> [AccessGrant] {
        try await read { [database] connection in try await PostgresGrantRows.fetch(of: principal, connection, database) }
    }

    /// The policy of `principal` as the database holds it now.
    func policy(for principal: Principal) async throws(HealthError) -> AccessPolicy {
        if principal.kind == .system { return AccessPolicy(principal, grants: []) }
        return AccessPolicy(principal, grants: try await grants(of: principal))
    }

    /// New samples of `type` (and `patient`, if given) saved through this store, from
    /// now until the stream is dropped or the store goes away. Only samples `principal`
    /// may read at the time of the save are yielded.
    ///
    /// - Throws: ``HealthError/notAuthorized(principal:access:type:patient:)`` when
    ///   `patient` is given and the principal may not read its `type`.
    public func observe(_ type: HealthType, patient: PatientID?, as principal: Principal) async throws(HealthError) -> AsyncStream<HealthSample> {
        if let patient {
            try patient.validate()
            try await policy(for: principal).require(.read, type, of: patient)
        }
        return observers.stream(of: type, patient: patient, principal: principal)
    }
}
