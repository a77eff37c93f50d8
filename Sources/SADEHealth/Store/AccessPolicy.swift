/// What one principal may do, from its grants: the check every operation makes.
///
/// A correlation is covered only when its own type and every member type are (its
/// members are samples of those types); a principal of kind `system` (such as
/// ``Principal/system``) may do everything.
package struct AccessPolicy: Sendable {
    /// Whose policy.
    package let principal: Principal
    /// The principal's grants.
    package let grants: [AccessGrant]

    /// The policy of `principal` among `grants` (which may hold everyone's).
    package init(_ principal: Principal, grants: [AccessGrant]) {
        self.principal = principal
        self.grants = principal.kind == .system ? [] : grants.filter { $0.principal == principal }
    }

    /// Whether the principal is the platform itself.
    package var isSystem: Bool { principal.kind == .system }

    /// Whether `access` to `type` of `patient` is allowed.
    package func allows(_ access: AccessMode, _ type: HealthType, of patient: PatientID) -> Bool {
        if isSystem { return true }
        return Self.coveredTypes(type).allSatisfy { covered in grants.contains { $0.covers(access, covered, of: patient) } }
    }

    /// Throws ``HealthError/notAuthorized(principal:access:type:patient:)`` unless allowed.
    package func require(_ access: AccessMode, _ type: HealthType, of patient: PatientID) throws(HealthError) {
        guard allows(access, type, of: patient) else {
            throw .notAuthorized(principal: principal, access: access, type: type.identifier, patient: patient)
        }
    }

    /// The patients whose `type` may be accessed: `nil` for every patient.
    package func patients(_ access: AccessMode, _ type: HealthType) -> Set<PatientID>? {
        if isSystem { return nil }
        var allowed: Set<PatientID>?  // every patient, until a type narrows it
        for covered in Self.coveredTypes(type) {
            let matching = grants.filter { $0.access == access && ($0.types?.contains(covered) ?? true) }
            // Every patient for this type when one grant names none.
            if matching.contains(where: { $0.patients == nil }) { continue }
            let forType = matching.reduce(into: Set<PatientID>()) { $0.formUnion($1.patients ?? []) }
            allowed = allowed.map { $0.intersection(forType) } ?? forType
        }
        return allowed
    }

    /// The types a grant must cover to reach samples of `type`.
    package static func coveredTypes(_ type: HealthType) -> [HealthType] {
        guard case .correlation(let correlation) = type else { return [type] }
        return [type] + correlation.memberTypes.sorted { $0.rawValue < $1.rawValue }.map(HealthType.quantity)
    }
}
