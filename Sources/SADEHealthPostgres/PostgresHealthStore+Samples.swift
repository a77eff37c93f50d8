import Foundation
import PostgresNIO
import SADEHealth
import SADEPostgres

extension PostgresHealthStore {
    /// Saves samples in one transaction: every sample is validated and the principal's
    /// share permission checked for each before anything is written, so a batch is
    /// stored whole or not at all. Observers hear of the samples once they are committed.
    /// Saves made while another is being written are committed together
    /// (``PostgresSaveQueue``).
    ///
    /// - Throws: the first sample's validation error, ``HealthError/notAuthorized(principal:access:type:patient:)``,
    ///   ``HealthError/duplicate(_:)`` for a UUID already stored (or twice in the batch),
    ///   or ``HealthError/storage(_:)``.
    public func save(_ samples: [HealthSample], as principal: Principal) async throws(HealthError) {
        guard !samples.isEmpty else { return }
        for sample in samples {
            try sample.validate()
        }
        let grants = try await saves.write(samples, as: principal)
        observers.publish(samples, grants: grants)
    }

    /// Deletes the samples with these identifiers (a correlation with its members);
    /// each deletion shows in anchored queries. Unknown identifiers are skipped.
    ///
    /// A member of a correlation goes only with its correlation: deleting a member
    /// alone is refused; listing it beside its correlation is fine.
    ///
    /// - Returns: how many of the identifiers were stored.
    /// - Throws: ``HealthError/invalidValue(field:reason:)`` naming `ids` for a member
    ///   of a correlation that is not deleted with it, or
    ///   ``HealthError/notAuthorized(principal:access:type:patient:)`` unless the
    ///   principal may share every sample's type for its patient; then nothing is deleted.
    @discardableResult
    public func purge(_ type: HealthType, startedBefore date: Date, limit: Int) async throws(HealthError) -> Int {
        // Members and electrocardiogram voltages go with their sample (ON DELETE CASCADE).
        try await write { [database] connection in
            try await connection.rows(
                """
                DELETE FROM sample WHERE change_number IN (
                    SELECT change_number FROM sample WHERE type = \(type.identifier) AND start < \(date.timeIntervalSinceReferenceDate)
                    AND correlation IS NULL LIMIT \(limit))
                RETURNING change_number
                """, database
            ).count
        }
    }

    public func delete(_ ids: [UUID], as principal: Principal) async throws(HealthError) -> Int {
        guard !ids.isEmpty else { return 0 }
        return try await write { [database] connection in
            try await PostgresSampleDeletion.lockCounter(connection, database)
            let policy = AccessPolicy(principal, grants: try await PostgresGrantRows.fetch(of: principal, connection, database))
            let rows = try await connection.rows(
                """
                SELECT sample.change_number, sample.uuid, sample.patient, sample.type, sample.correlation, parent.uuid, parent.type
                FROM sample LEFT JOIN sample AS parent ON parent.change_number = sample.correlation
                WHERE sample.uuid = ANY(\(Array(Set(ids))))
                """, database)
            var found: Set<Int64> = []
            var members: [(id: UUID, correlation: Int64, reading: UUID, type: String)] = []
            for row in rows {
                let (changeNumber, id, patient, type, correlation, readingID, readingType) = try row.decode(
                    (Int64, UUID, String, String, Int64?, UUID?, String?).self)
                try policy.require(.share, try HealthType(identifier: type), of: PatientID(rawValue: patient))
                found.insert(changeNumber)
                if let correlation, let readingID, let readingType {
                    members.append((id, correlation, readingID, readingType))
                }
            }
            for member in members.sorted(by: { $0.id.uuidString < $1.id.uuidString }) where !found.contains(member.correlation) {
                throw HealthError.memberDeletedAlone(member.id, of: member.reading, type: member.type)
            }
            try await PostgresSampleDeletion.delete(changeNumbers: found.sorted(), connection, database)
            return found.count
        }
    }
}

/// Deletes sample rows and leaves a tombstone for each (members of a deleted
/// correlation included), numbered after every change so far, so anchored queries
/// report the deletion. Members, waveforms and chunks go by `ON DELETE CASCADE`.
enum PostgresSampleDeletion {
    /// Takes the counter row's lock first, so that no save commits rows between what a
    /// deletion reads and what it deletes (rows deleted without a tombstone, or more
    /// tombstones than numbers taken); released at commit.
    static func lockCounter(_ connection: PostgresConnection, _ database: PostgresPool) async throws {
        try await connection.rows("SELECT last FROM change_counter WHERE id = 1 FOR UPDATE", database)
    }

    /// The rows with these change numbers, and their members.
    static func delete(changeNumbers: [Int64], _ connection: PostgresConnection, _ database: PostgresPool) async throws {
        guard !changeNumbers.isEmpty else { return }
        try await bury(where: "change_number = ANY($1) OR correlation = ANY($1)", changeNumbers, connection, database)
        var binds = PostgresBindings()
        binds.append(changeNumbers)
        try await connection.rows(PostgresQuery(unsafeSQL: "DELETE FROM sample WHERE change_number = ANY($1)", binds: binds), database)
    }

    /// Every sample of `patient`; returns how many there were.
    static func delete(patient: PatientID, _ connection: PostgresConnection, _ database: PostgresPool) async throws -> Int {
        let buried = try await bury(where: "patient = $1", patient.rawValue, connection, database)
        try await connection.rows("DELETE FROM sample WHERE patient = \(patient.rawValue)", database)
        return buried
    }

    /// Writes tombstones for the rows `condition` selects (with `value` as `$1`),
    /// numbered from the counter; returns how many.
    @discardableResult
    private static func bury(
        where condition: String, _ value: some PostgresDynamicTypeEncodable, _ connection: PostgresConnection, _ database: PostgresPool
    ) async throws -> Int {
        var binds = PostgresBindings()
        binds.append(value)
        let count = try await connection.rows(PostgresQuery(unsafeSQL: "SELECT COUNT(*) FROM sample WHERE \(condition)", binds: binds), database)
            .first?.decode(Int64.self) ?? 0
        guard count > 0 else { return 0 }
        let last = try await connection.rows("UPDATE change_counter SET last = last + \(count) WHERE id = 1 RETURNING last", database)
            .first?.decode(Int64.self) ?? 0
        binds.append(last - count)
        try await connection.rows(
            PostgresQuery(
                unsafeSQL: """
                    INSERT INTO tombstone (change_number, uuid, patient, type)
                    SELECT $2 + ROW_NUMBER() OVER (ORDER BY change_number), uuid, patient, type
                    FROM sample WHERE \(condition)
                    """, binds: binds), database)
        return Int(count)
    }
}
