import Foundation
import GRDB
import SADEHealth

extension SQLiteHealthStore {
    /// Saves samples in one transaction: every sample is validated and the principal's
    /// share permission checked for each before anything is written, so a batch is
    /// stored whole or not at all. Observers hear of the samples once they are committed.
    ///
    /// - Throws: the first sample's validation error, ``HealthError/notAuthorized(principal:access:type:patient:)``,
    ///   ``HealthError/duplicate(_:)`` for a UUID already stored (or twice in the batch),
    ///   or ``HealthError/storage(_:)``.
    public func save(_ samples: [HealthSample], as principal: Principal) async throws(HealthError) {
        guard !samples.isEmpty else { return }
        for sample in samples {
            try sample.validate()
        }
        let grants = try await write { db in
            let grants = try AccessGrantRows.fetch(of: nil, db)
            let policy = AccessPolicy(principal, grants: grants)
            for sample in samples {
                try policy.require(.share, sample.type, of: sample.patient)
            }
            var writer = try SampleWriter(db)
            for sample in samples {
                try writer.insert(sample)
            }
            return grants
        }
        observers.publish(samples, grants: grants)
    }

    /// Deletes the samples with these identifiers (a correlation with its members);
    /// each deletion shows in anchored queries. Unknown identifiers are skipped.
    ///
    /// A member of a correlation goes only with its correlation: a blood pressure is a
    /// systolic and a diastolic value taken together, and half of one is no reading
    /// (nor a valid sample, ``HealthSample/validate()``). Deleting a member alone is
    /// refused; listing it beside its correlation is fine.
    ///
    /// - Returns: how many of the identifiers were stored.
    /// - Throws: ``HealthError/invalidValue(field:reason:)`` naming `ids` for a member
    ///   of a correlation that is not deleted with it, or
    ///   ``HealthError/notAuthorized(principal:access:type:patient:)`` unless the
    ///   principal may share every sample's type for its patient; then nothing is deleted.
    @discardableResult
    public func purge(_ type: HealthType, startedBefore date: Date, limit: Int) async throws(HealthError) -> Int {
        try await write { db in
            // Members and electrocardiogram voltages go with their sample (ON DELETE CASCADE).
            try db.execute(
                sql: """
                    DELETE FROM sample WHERE change_number IN (
                        SELECT change_number FROM sample WHERE type = ? AND start < ? AND correlation IS NULL LIMIT ?)
                    """,
                arguments: [type.identifier, date.timeIntervalSinceReferenceDate, limit])
            return db.changesCount
        }
    }

    public func delete(_ ids: [UUID], as principal: Principal) async throws(HealthError) -> Int {
        guard !ids.isEmpty else { return 0 }
        return try await write { db in
            let policy = AccessPolicy(principal, grants: try AccessGrantRows.fetch(of: principal, db))
            let find = try db.cachedStatement(
                sql: """
                    SELECT sample.change_number, sample.patient, sample.type, sample.correlation, parent.uuid, parent.type
                    FROM sample LEFT JOIN sample AS parent ON parent.change_number = sample.correlation
                    WHERE sample.uuid = ?
                    """)
            var found: Set<Int64> = []
            var members: [(id: UUID, correlation: Int64, reading: UUID, type: String)] = []
            for id in Set(ids) {
                guard let row = try Row.fetchOne(find, arguments: [id]) else { continue }
                try policy.require(.share, try HealthType(identifier: row.decode(atIndex: 2)), of: PatientID(rawValue: try row.decode(atIndex: 1)))
                found.insert(try row.decode(atIndex: 0))
                if let correlation = try row.decode(Int64?.self, atIndex: 3) {
                    members.append((id, correlation, try row.decode(atIndex: 4), try row.decode(atIndex: 5)))
                }
            }
            for member in members.sorted(by: { $0.id.uuidString < $1.id.uuidString }) where !found.contains(member.correlation) {
                throw HealthError.memberDeletedAlone(member.id, of: member.reading, type: member.type)
            }
            try SampleDeletion.delete(changeNumbers: found.sorted(), db)
            return found.count
        }
    }
}
