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

    /// ``changes(_:patient:since:limit:as:)`` for several types: one snapshot, one look
    /// at the principal's grants. When the principal reads the same patients of every
    /// type (the system does: the pipeline's collection), two statements read them all.
    ///
    /// - Throws: as ``samples(_:as:)``.
    public func changes(
        _ types: [HealthType], patient: PatientID?, since anchors: [String: HealthAnchor], limit: Int?, as principal: Principal
    ) async throws(HealthError) -> [String: AnchoredChanges] {
        try await changes(types, patient: patient, shards: nil, since: anchors, through: nil, limit: limit, as: principal)
    }

    /// ``changes(_:patient:since:limit:as:)`` for several types of the patients in
    /// `shards`, picked in SQL (additions and deletions), no further than `through`.
    ///
    /// - Throws: as ``samples(_:as:)``.
    public func changes(
        _ types: [HealthType], in shards: PatientShards?, since anchors: [String: HealthAnchor], through: HealthAnchor?, limit: Int?,
        as principal: Principal
    ) async throws(HealthError) -> [String: AnchoredChanges] {
        try await changes(
            types, patient: nil, shards: shards?.isAll == true ? nil : shards, since: anchors, through: through, limit: limit, as: principal)
    }

    private func changes(
        _ types: [HealthType], patient: PatientID?, shards: PatientShards?, since anchors: [String: HealthAnchor], through: HealthAnchor?,
        limit: Int?, as principal: Principal
    ) async throws(HealthError) -> [String: AnchoredChanges] {
        if let limit, limit < 1 { throw .invalidValue(field: "limit", reason: "must be at least 1") }
        // Types whose samples need more reads (a correlation's members, an ECG's waveform)
        // are read in one snapshot, as is a single type.
        let plain = types.allSatisfy { if case .quantity = $0 { true } else if case .category = $0 { true } else { false } }
        if plain, Set(types.map(\.identifier)).count > 1 { do {
            let together = try await database.withConnection { [database] connection in
                // The system may do everything: its policy needs no grants.
                let grants = principal.kind == .system ? [] : try await PostgresGrantRows.fetch(of: principal, connection, database)
                return try await Self.changes(
                    of: types, patient: patient, shards: shards, since: anchors, through: through, limit: limit,
                    policy: AccessPolicy(principal, grants: grants), connection, database)
            }
            if let together { return together }
        } catch {
            throw HealthError(postgres: error, while: "reading")
        } }
        return try await read { [database] connection in
            let policy = AccessPolicy(principal, grants: try await PostgresGrantRows.fetch(of: principal, connection, database))
            let counter = try await connection.rows("SELECT last FROM change_counter WHERE id = 1", database).first?.decode(Int64.self) ?? 0
            let last = min(counter, through?.rawValue ?? .max)
            var changes: [String: AnchoredChanges] = [:]
            for type in types {
                changes[type.identifier] = try await Self.changes(
                    type, patient: patient, shards: shards, since: anchors[type.identifier] ?? .start, through: through, limit: limit,
                    policy: policy, last: last, connection, database)
            }
            return changes
        }
    }

    /// The changes of several types in two statements outside a transaction (two round
    /// trips where a transaction took five): the first reads the change counter and each
    /// type's page from its own anchor with its own limit (a lateral join over the
    /// types), the second the tombstones up to where each page ended. Writers take the
    /// change counter's lock until they commit, so the changes up to the counter read
    /// are all committed, and the second statement sees every one the first did. (A
    /// correlation deleted between the statements comes without its members; its
    /// deletion is in the next read.)
    /// `nil` when the principal may read other patients of one type than of another
    /// (then the types are read one by one, in one transaction).
    private static func changes(
        of types: [HealthType], patient: PatientID?, shards: PatientShards?, since anchors: [String: HealthAnchor], through: HealthAnchor?,
        limit: Int?, policy: AccessPolicy, _ connection: PostgresConnection, _ database: PostgresPool
    ) async throws -> [String: AnchoredChanges]? {
        let identifiers = Array(Set(types.map(\.identifier))).sorted()
        guard identifiers.count > 1 else { return nil }
        let readable = types.map { policy.patients(.read, $0) }
        guard readable.allSatisfy({ $0 == readable[0] }) else { return nil }
        var filter = try PostgresSampleFilter(patientsOf: types, patient: patient, policy: policy)
        if let shards { filter.add(shards) }
        if let through { filter.add("change_number <= $", through.rawValue) }
        let from = identifiers.map { (anchors[$0] ?? .start).rawValue }
        let conditions = filter.conditions.map { " AND " + $0 }.joined()
        var binds = filter.binds
        binds.append(identifiers)
        binds.append(from)
        let wanted = "unnest($\(binds.count - 1)::TEXT[], $\(binds.count)::BIGINT[]"
        var page = ""
        if let limit {
            binds.append(Int64(limit))
            page = " LIMIT $\(binds.count)"
        }
        // The counter's row always comes, with the pages' rows (none when nobody may be read).
        let rows = try await connection.rows(
            PostgresQuery(
                unsafeSQL: """
                    SELECT page.*, counter.last FROM (SELECT last FROM change_counter WHERE id = 1) AS counter LEFT JOIN LATERAL (
                        SELECT page.* FROM \(wanted)) AS wanted(type, anchor) CROSS JOIN LATERAL (
                            SELECT \(PostgresSampleReader.columns) FROM sample
                            WHERE \(filter.matchesNothing ? "FALSE" : "TRUE") AND type = wanted.type AND change_number > wanted.anchor\(conditions)
                            ORDER BY change_number\(page)
                        ) AS page
                    ) AS page ON TRUE ORDER BY page.change_number
                    """, binds: binds), database)
        let last = min(try rows.first?.makeRandomAccess()[PostgresSampleReader.columnCount].decode(Int64.self) ?? 0, through?.rawValue ?? .max)
        var reader = PostgresSampleReader(connection, database)
        let added = try await reader.fetch(rows: rows.filter { try $0.makeRandomAccess()[0].decode(Int64?.self) != nil })
        var samples: [String: [HealthSample]] = [:]
        var lastAdded: [String: Int64] = [:]
        for (sample, changeNumber) in zip(added.samples, added.changeNumbers) {
            samples[sample.type.identifier, default: []].append(sample)
            lastAdded[sample.type.identifier] = changeNumber
        }
        // A full page ends at its last addition; otherwise everything up to the counter is seen.
        let upTo = identifiers.map { type in limit.flatMap { samples[type]?.count == $0 ? lastAdded[type] : nil } ?? max(last, anchors[type]?.rawValue ?? 0) }
        var changes: [String: AnchoredChanges] = [:]
        for (type, upTo) in zip(identifiers, upTo) {
            changes[type] = AnchoredChanges(added: samples[type] ?? [], deleted: [], anchor: HealthAnchor(rawValue: upTo))
        }
        guard !filter.matchesNothing else { return changes }
        binds = filter.binds
        binds.append(identifiers)
        binds.append(from)
        binds.append(upTo)
        let deleted = try await connection.rows(
            PostgresQuery(
                unsafeSQL: """
                    SELECT wanted.type, tombstone.uuid FROM \(wanted), $\(binds.count)::BIGINT[]) AS wanted(type, anchor, up_to)
                    JOIN tombstone ON tombstone.type = wanted.type AND tombstone.change_number > wanted.anchor AND tombstone.change_number <= wanted.up_to
                    WHERE TRUE\(conditions) ORDER BY tombstone.change_number
                    """, binds: binds), database
        ).map { try $0.decode((String, UUID).self) }
        for (type, uuid) in deleted { changes[type]?.deleted.append(uuid) }
        return changes
    }

    /// One type's changes inside the snapshot; `last` is the newest change number in it.
    private static func changes(
        _ type: HealthType, patient: PatientID?, shards: PatientShards?, since anchor: HealthAnchor, through: HealthAnchor?, limit: Int?,
        policy: AccessPolicy, last: Int64, _ connection: PostgresConnection, _ database: PostgresPool
    ) async throws -> AnchoredChanges {
        var filter = try PostgresSampleFilter(type, patient: patient, policy: policy)
        if let shards { filter.add(shards) }
        if let through { filter.add("change_number <= $", through.rawValue) }
        if filter.matchesNothing { return AnchoredChanges(added: [], deleted: [], anchor: HealthAnchor(rawValue: max(last, anchor.rawValue))) }
        filter.add("change_number > $", anchor.rawValue)
        var reader = PostgresSampleReader(connection, database)
        let added = try await reader.fetch(
            filter.query("SELECT \(PostgresSampleReader.columns) FROM sample", "ORDER BY change_number", limit: limit))
        // A full page ends at its last addition; otherwise everything up to now (or to
        // `through`) is seen — never before the anchor.
        let upTo = limit.flatMap { added.samples.count == $0 ? added.changeNumbers.last : nil } ?? max(last, anchor.rawValue)
        filter.add("change_number <= $", upTo)
        let deleted = try await connection.rows(filter.query("SELECT uuid FROM tombstone", "ORDER BY change_number"), database)
            .map { try $0.decode(UUID.self) }
        return AnchoredChanges(added: added.samples, deleted: deleted, anchor: HealthAnchor(rawValue: upTo))
    }
}
