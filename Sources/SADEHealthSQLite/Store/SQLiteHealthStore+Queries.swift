import Foundation
import GRDB
import SADEHealth

extension SQLiteHealthStore {
    /// The samples matching `query`, ordered by start time (then by when they were
    /// saved). A member type (systolic) gives member samples; a correlation type the
    /// correlations with their members; an ECG its whole waveform.
    ///
    /// - Throws: ``HealthError/notAuthorized(principal:access:type:patient:)`` when
    ///   `query.patient` is given and may not be read; without a patient, the result
    ///   holds only the patients the principal may read.
    public func samples(_ query: SampleQuery, as principal: Principal) async throws(HealthError) -> [HealthSample] {
        if let limit = query.limit, limit < 0 { throw .invalidValue(field: "limit", reason: "must not be negative") }
        return try await read { db in
            let policy = AccessPolicy(principal, grants: try AccessGrantRows.fetch(of: principal, db))
            var filter = try SampleFilter(query.type, patient: query.patient, policy: policy)
            if filter.matchesNothing || query.limit == 0 { return [] }
            if let from = query.from { filter.add("start >= ?", from.timeIntervalSinceReferenceDate) }
            if let until = query.until { filter.add("start < ?", until.timeIntervalSinceReferenceDate) }
            let direction = query.order == .oldestFirst ? "ASC" : "DESC"
            var reader = SampleReader(db)
            return try reader.fetch(
                "SELECT \(SampleReader.columns) FROM sample \(filter.sql) ORDER BY start \(direction), change_number \(direction) LIMIT ?",
                arguments: filter.arguments(query.limit ?? -1))
        }
    }

    /// What was added or deleted for `type` (and `patient`) since `anchor`, in the
    /// order of the changes; at most `limit` additions, and then the deletions up to
    /// the last of them, so that passing the returned anchor again continues exactly there.
    ///
    /// - Throws: as ``samples(_:as:)``.
    public func changes(_ type: HealthType, patient: PatientID?, since anchor: HealthAnchor, limit: Int?, as principal: Principal) async throws(HealthError) -> AnchoredChanges {
        if let limit, limit < 1 { throw .invalidValue(field: "limit", reason: "must be at least 1") }
        return try await read { db in
            let policy = AccessPolicy(principal, grants: try AccessGrantRows.fetch(of: principal, db))
            return try Self.changes(type, patient: patient, since: anchor, limit: limit, policy: policy, last: SampleWriter.lastChangeNumber(db), db)
        }
    }

    /// ``changes(_:patient:since:limit:as:)`` for several types in one read
    /// transaction: one snapshot, one look at the principal's grants, one trip to
    /// the database's reader (the pipeline's collector asks for 9 types every cycle).
    ///
    /// - Throws: as ``samples(_:as:)``.
    public func changes(
        _ types: [HealthType], patient: PatientID?, since anchors: [String: HealthAnchor], limit: Int?, as principal: Principal
    ) async throws(HealthError) -> [String: AnchoredChanges] {
        try await changes(types, patient: patient, since: anchors, through: nil, limit: limit, as: principal)
    }

    /// ``changes(_:patient:since:limit:as:)`` for several types of the patients in
    /// `shards` (left out after reading: one node of its own reads every shard), no
    /// further than `through`.
    ///
    /// - Throws: as ``samples(_:as:)``.
    public func changes(
        _ types: [HealthType], in shards: PatientShards?, since anchors: [String: HealthAnchor], through: HealthAnchor?, limit: Int?,
        as principal: Principal
    ) async throws(HealthError) -> [String: AnchoredChanges] {
        var changes = try await changes(types, patient: nil, since: anchors, through: through, limit: limit, as: principal)
        guard let shards, !shards.isAll else { return changes }
        for type in changes.keys { changes[type]?.added.removeAll { !shards.contains($0.patient) } }
        return changes
    }

    /// Several types' changes in one read transaction, no further than `through`.
    private func changes(
        _ types: [HealthType], patient: PatientID?, since anchors: [String: HealthAnchor], through: HealthAnchor?, limit: Int?,
        as principal: Principal
    ) async throws(HealthError) -> [String: AnchoredChanges] {
        if let limit, limit < 1 { throw .invalidValue(field: "limit", reason: "must be at least 1") }
        return try await read { db in
            let policy = AccessPolicy(principal, grants: try AccessGrantRows.fetch(of: principal, db))
            let last = min(try SampleWriter.lastChangeNumber(db), through?.rawValue ?? .max)
            var changes: [String: AnchoredChanges] = [:]
            for type in types {
                changes[type.identifier] = try Self.changes(
                    type, patient: patient, since: anchors[type.identifier] ?? .start, limit: limit, policy: policy, last: last,
                    through: through, db)
            }
            return changes
        }
    }

    /// One type's changes, inside a read transaction; `last` is the newest change number
    /// (or `through`, when lower).
    private static func changes(
        _ type: HealthType, patient: PatientID?, since anchor: HealthAnchor, limit: Int?, policy: AccessPolicy, last: Int64,
        through: HealthAnchor? = nil, _ db: Database
    ) throws -> AnchoredChanges {
        var filter = try SampleFilter(type, patient: patient, policy: policy, byChangeNumber: true)
        if filter.matchesNothing { return AnchoredChanges(added: [], deleted: [], anchor: HealthAnchor(rawValue: max(last, anchor.rawValue))) }
        filter.add("change_number > ?", anchor.rawValue)
        if let through { filter.add("change_number <= ?", through.rawValue) }
        var reader = SampleReader(db)
        let added = try reader.fetchNumbered(
            "SELECT \(SampleReader.columns) FROM sample \(filter.sql) ORDER BY change_number LIMIT ?",
            arguments: filter.arguments(limit ?? -1))
        // A full page ends at its last addition; otherwise everything up to now (or to
        // `through`) is seen — never before the anchor.
        let upTo = limit.flatMap { added.samples.count == $0 ? added.changeNumbers.last : nil } ?? max(last, anchor.rawValue)
        filter.add("change_number <= ?", upTo)
        let deleted = try UUID.fetchAll(db, sql: "SELECT uuid FROM tombstone \(filter.sql) ORDER BY change_number", arguments: filter.arguments())
        return AnchoredChanges(added: added.samples, deleted: deleted, anchor: HealthAnchor(rawValue: upTo))
    }
}
