import Foundation
import SADEHealth

/// Where the wearable facade's projects and data items are kept: the monitoring
/// database's SQLite file on one machine, PostgreSQL when several nodes share them. The
/// rules (validation) stay in ``WearableStore``.
public protocol WearableRecords: Sendable {
    /// Every project, "No Project" first.
    func projects() async throws(MonitoringError) -> [WearableProject]
    /// The project with this identifier.
    func project(_ id: Int) async throws(MonitoringError) -> WearableProject?
    /// Adds a project, numbered after the last one.
    func insertProject(name: String, description: String?, adminID: String?, startTime: Date) async throws(MonitoringError) -> WearableProject
    /// The data item with this identifier.
    func item(_ id: Int64) async throws(MonitoringError) -> WearableDataItem?
    /// The data items of these owners, oldest first.
    func items(ownedByAnyOf ownerIDs: [String]) async throws(MonitoringError) -> [WearableDataItem]
    /// Deletes every data item of `ownerID`; returns how many there were.
    func deleteItems(ownedBy ownerID: String) async throws(MonitoringError) -> Int
    /// Stores `reading` as a new item of `ownerID` received at `date`, with the samples
    /// `samples` makes of it and the owner's previous item of the same device (read in
    /// the same transaction, one item of an owner at a time across nodes); the samples'
    /// identifiers are stored with it.
    func add(
        _ reading: WearableReading, ownerID: String, at date: Date,
        samples: @escaping @Sendable (_ item: WearableDataItem, _ previous: WearableDataItem?) -> [HealthSample]
    ) async throws(MonitoringError) -> (item: WearableDataItem, samples: [HealthSample])
    /// Removes a data item; returns whether it existed.
    func delete(_ id: Int64) async throws(MonitoringError) -> Bool
}
