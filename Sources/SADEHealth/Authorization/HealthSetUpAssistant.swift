/// Sets up who may read and write health data (SADE4Health's
/// `HealthKitSetUpAssistant`): where HealthKit asks the user, a SADE application
/// asks its store to grant an agent, app or user the types it needs.
///
/// ```swift
/// try await HealthSetUpAssistant(store: store).requestAuthorization(
///     for: .agent("Collector"), read: [.quantity(.heartRate)], share: [.quantity(.heartRate)], patients: ["p-1"])
/// ```
public struct HealthSetUpAssistant<Store: HealthStore>: Sendable {
    /// The store that keeps the grants.
    public let store: Store

    /// An assistant for `store`.
    public init(store: Store) { self.store = store }

    /// Grants `principal` reading of `read` and sharing (writing) of `share` for
    /// `patients` (every patient when `nil`). A correlation type brings its member
    /// types along, since its members are samples of those types.
    public func requestAuthorization(
        for principal: Principal, read: Set<HealthType>, share: Set<HealthType>, patients: Set<PatientID>? = nil
    ) async throws(HealthError) {
        if let patients, patients.isEmpty { throw .invalidValue(field: "patients", reason: "name at least one patient, or nil for all") }
        for (access, types) in [(AccessMode.read, read), (.share, share)] where !types.isEmpty {
            try await store.grant(AccessGrant(principal, access, types: Self.withMembers(types), patients: patients))
        }
    }

    /// Whether `principal` may already do all that ``requestAuthorization(for:read:share:patients:)`` would grant.
    public func isAuthorized(
        _ principal: Principal, read: Set<HealthType>, share: Set<HealthType>, patients: Set<PatientID>
    ) async throws(HealthError) -> Bool {
        for patient in patients {
            for (access, types) in [(AccessMode.read, read), (.share, share)] {
                for type in types where try await !store.isAuthorized(principal, to: access, type, of: patient) {
                    return false
                }
            }
        }
        return true
    }

    private static func withMembers(_ types: Set<HealthType>) -> Set<HealthType> {
        types.reduce(into: types) { all, type in
            if case .correlation(let correlation) = type { all.formUnion(correlation.memberTypes.map(HealthType.quantity)) }
        }
    }
}
