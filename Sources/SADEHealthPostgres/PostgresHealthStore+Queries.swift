import Foundation
import PostgresNIO
import SADEHealth
import SADEPostgres

extension PostgresHealthStore {
    /// The samples matching `query`, ordered by start time (then by when they were
    /// saved). A member type (systolic) gives member samples; a correlation type the
    /// correlations with their members; an ECG its whole waveform.
    ///
    /// - Throws: ``HealthError/notAuthorized(principal:access:type:patient:)`` when
    ///   `query.patient` is given and may not be read; without a patient, the result
    ///   holds only the patients the principal may read.
    public func samples(_ query: SampleQuery, as principal: Principal) async throws(HealthError) -> [HealthSample] {
        if let limit = query.limit, limit < 0 { throw .invalidValue(field: "limit", reason: "must not be negative") }
        return try await read { [database] connection in
            let policy = AccessPolicy(principal, grants: try await PostgresGrantRows.fetch(of: principal, connection, database))
            var filter = try PostgresSampleFilter(query.type, patient: query.patient, policy: policy)
            if filter.matchesNothing || query.limit == 0 { return [] }
            if let from = query.from { filter.add("start >= $", from.timeIntervalSinceReferenceDate) }
            if let until = query.until { filter.add("start < $", until.timeIntervalSinceReferenceDate) }
            let direction = query.order == .oldestFirst ? "ASC" : "DESC"
            var reader = PostgresSampleReader(connection, database)
            return try await reader.fetch(
                filter.query(
                    "SELECT \(PostgresSampleReader.columns) FROM sample", "ORDER BY start \(direction), change_number \(direction)",
                    limit: query.limit)
            ).samples
        }
    }

    /// What was added or deleted for `type` (and `patient`) since `anchor`, in the
    /// order of the changes; at most `limit` additions, and then the deletions up to
    /// the last of them, so that passing the returned anchor again continues exactly there.
    ///
    /// - Throws: as ``samples(_:as:)``.
    public func changes(_ type: HealthType, patient: PatientID?, since anchor: HealthAnchor, limit: Int?, as principal: Principal) async throws(HealthError) -> AnchoredChanges {
        try await changes([type], patient: patient, since: [type.identifier: anchor], limit: limit, as: principal)[type.identifier]
            ?? AnchoredChanges(added: [], deleted: [], anchor: anchor)
    }

    /// ``changes(_:patient:since:limit:as:)`` for several types in one read-only
    /// transaction: one snapshot, one look at the principal's grants.
    ///
    /// - Throws: as ``samples(_:as:)``.
    public func changes(
        _ types: [HealthType], patient: PatientID?, since anchors: [String: HealthAnchor], limit: Int?, as principal: Principal
    ) async throws(HealthError) -> [String: AnchoredChanges] {
        if let limit, limit < 1 { throw .invalidValue(field: "limit", reason: "must be at least 1") }
        return try await read { [database] connection in
            let policy = AccessPolicy(principal, grants: try await PostgresGrantRows.fetch(of: principal, connection, database))
            let last = try await connection.rows("SELECT last FROM change_counter WHERE id = 1", database).first?.decode(Int64.self) ?? 0
            var changes: [String: AnchoredChanges] = [:]
            for type in types {
                changes[type.identifier] = try await Self.changes(
                    type, patient: patient, since: anchors[type.identifier] ?? .start, limit: limit, policy: policy, last: last,
                    connection, database)
            }
            return changes
        }
    }

    /// One type's changes inside the snapshot; `last` is the newest change number in it.
    private static func changes(
        _ type: HealthType, patient: PatientID?, since anchor: HealthAnchor, limit: Int?, policy: AccessPolicy, last: Int64,
        _ connection: PostgresConnection, _ database: PostgresPool
    ) async throws -> AnchoredChanges {
        var filter = try PostgresSampleFilter(type, patient: patient, policy: policy)
        if filter.matchesNothing { return AnchoredChanges(added: [], deleted: [], anchor: HealthAnchor(rawValue: last)) }
        filter.add("change_number > $", anchor.rawValue)
        var reader = PostgresSampleReader(connection, database)
        let added = try await reader.fetch(
            filter.query("SELECT \(PostgresSampleReader.columns) FROM sample", "ORDER BY change_number", limit: limit))
        // A full page ends at its last addition; otherwise everything up to now is seen.
        let upTo = limit.flatMap { added.samples.count == $0 ? added.changeNumbers.last : nil } ?? last
        filter.add("change_number <= $", upTo)
        let deleted = try await connection.rows(filter.query("SELECT uuid FROM tombstone", "ORDER BY change_number"), database)
            .map { try $0.decode(UUID.self) }
        return AnchoredChanges(added: added.samples, deleted: deleted, anchor: HealthAnchor(rawValue: upTo))
    }
}
