import Foundation

/// The health data store (the shape of Apple HealthKit's `HKHealthStore`, for many
/// patients): samples of vital signs and other health types, queried by type,
/// patient and time, incrementally by anchor, live, and as statistics.
///
/// Every operation names the ``Principal`` acting; it must hold a matching
/// ``AccessGrant`` (``Principal/system`` may do everything), otherwise the operation
/// throws ``HealthError/notAuthorized(principal:access:type:patient:)``. Samples are
/// validated (``HealthSample/validate()``) before anything is stored.
///
/// The protocol knows nothing of SQL: `SADEHealthSQLite` implements it on SQLite,
/// and a PostgreSQL backend can follow.
public protocol HealthStore: Sendable {
    // MARK: Authorization

    /// Grants a permission.
    func grant(_ grant: AccessGrant) async throws(HealthError)
    /// Withdraws every permission of `principal` for `access`.
    func revokeAll(_ access: AccessMode, from principal: Principal) async throws(HealthError)
    /// Whether `principal` may `access` samples of `type` of `patient`.
    func isAuthorized(_ principal: Principal, to access: AccessMode, _ type: HealthType, of patient: PatientID) async throws(HealthError) -> Bool

    // MARK: Writing

    /// Saves samples in one transaction: all or none.
    func save(_ samples: [HealthSample], as principal: Principal) async throws(HealthError)
    /// Deletes samples by identifier; deletions show in anchored queries.
    /// Returns how many existed.
    @discardableResult
    func delete(_ ids: [UUID], as principal: Principal) async throws(HealthError) -> Int
    /// Removes at most `limit` samples of `type` that started before `date` (a retention
    /// period's end), with their members, in one short transaction; returns how many
    /// (members not counted). Unlike ``delete(_:as:)`` it leaves no deletion marks:
    /// anchored readers are long past samples this old. Called repeatedly until it
    /// returns less than `limit`, it purges without holding up writers for long.
    func purge(_ type: HealthType, startedBefore date: Date, limit: Int) async throws(HealthError) -> Int

    // MARK: Reading

    /// The samples matching `query`, of the patients the principal may read.
    func samples(_ query: SampleQuery, as principal: Principal) async throws(HealthError) -> [HealthSample]
    /// What was added or deleted for `type` (and `patient`, if given) since `anchor`,
    /// at most `limit` additions.
    func changes(_ type: HealthType, patient: PatientID?, since anchor: HealthAnchor, limit: Int?, as principal: Principal) async throws(HealthError) -> AnchoredChanges
    /// ``changes(_:patient:since:limit:as:)`` for several types at once, each from its
    /// own anchor (``HealthAnchor/start`` when missing), keyed by type identifier; a
    /// store with transactions reads them all at one point in time.
    func changes(
        _ types: [HealthType], patient: PatientID?, since anchors: [String: HealthAnchor], limit: Int?, as principal: Principal
    ) async throws(HealthError) -> [String: AnchoredChanges]
    /// ``changes(_:patient:since:limit:as:)`` for several types, of the patients in `shards` only
    /// (every patient's when `nil`), and no further than `through` when given: what a
    /// node evaluating those shards reads (reads of several groups of shards capped at
    /// one point end at the same anchors, and go on as one). A page of `limit` may end
    /// early where other shards' samples filled it; the anchor returned still continues
    /// exactly there. Deletions may include other shards' (a store that cannot tell
    /// whose a deleted sample was).
    func changes(
        _ types: [HealthType], in shards: PatientShards?, since anchors: [String: HealthAnchor], through: HealthAnchor?, limit: Int?,
        as principal: Principal
    ) async throws(HealthError) -> [String: AnchoredChanges]
    /// New samples of `type` (and `patient`) as they are saved, until the stream is dropped.
    func observe(_ type: HealthType, patient: PatientID?, as principal: Principal) async throws(HealthError) -> AsyncStream<HealthSample>
    /// Aggregates of `type` for `patient` between `start` and `end`.
    func statistics(_ type: QuantityType, patient: PatientID, from start: Date, to end: Date, as principal: Principal) async throws(HealthError) -> HealthStatistics
    /// Aggregates per bucket of `interval` seconds from `start` (HealthKit's statistics
    /// collection); empty buckets included with count 0.
    func statisticsCollection(
        _ type: QuantityType, patient: PatientID, from start: Date, to end: Date, interval: TimeInterval, as principal: Principal
    ) async throws(HealthError) -> [HealthStatistics]
}

extension HealthStore {
    /// One anchored query per type, one after the other.
    public func changes(
        _ types: [HealthType], patient: PatientID?, since anchors: [String: HealthAnchor], limit: Int?, as principal: Principal
    ) async throws(HealthError) -> [String: AnchoredChanges] {
        var changes: [String: AnchoredChanges] = [:]
        for type in types {
            changes[type.identifier] = try await self.changes(
                type, patient: patient, since: anchors[type.identifier] ?? .start, limit: limit, as: principal)
        }
        return changes
    }

    /// Saves one sample.
    public func save(_ sample: HealthSample, as principal: Principal) async throws(HealthError) {
        try await save([sample], as: principal)
    }
}
