import SADEHealth

extension SQLiteHealthStore {
    /// New samples of `type` (and `patient`, if given) as they are saved, from now
    /// until the stream is dropped or the store goes away. Only samples `principal`
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
