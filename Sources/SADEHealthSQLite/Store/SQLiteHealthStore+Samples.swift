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
    /// - Returns: how many of the identifiers were stored.
    /// - Throws: ``HealthError/notAuthorized(principal:access:type:patient:)`` unless the
    ///   principal may share every sample's type for its patient (then nothing is deleted).
    @discardableResult
    public func delete(_ ids: [UUID], as principal: Principal) async throws(HealthError) -> Int {
        guard !ids.isEmpty else { return 0 }
        return try await write { db in
            let policy = AccessPolicy(principal, grants: try AccessGrantRows.fetch(of: principal, db))
            let find = try db.cachedStatement(sql: "SELECT change_number, patient, type FROM sample WHERE uuid = ?")
            var found: Set<Int64> = []
            for id in Set(ids) {
                guard let row = try Row.fetchOne(find, arguments: [id]) else { continue }
                try policy.require(.share, try HealthType(identifier: row.decode(atIndex: 2)), of: PatientID(rawValue: try row.decode(atIndex: 1)))
                found.insert(try row.decode(atIndex: 0))
            }
            try SampleDeletion.delete(changeNumbers: found.sorted(), db)
            return found.count
        }
    }
}
