import Foundation
import SADEHealth

/// The wearable facade's projects and data items, kept by ``WearableRecords`` (the
/// monitoring database's SQLite file, or PostgreSQL shared by several nodes).
/// Every method is safe to call from any task.
public struct WearableStore: Sendable {
    /// Where the projects and items are kept.
    public let records: any WearableRecords

    /// Projects and data items kept by `records`.
    public init(records: any WearableRecords) { self.records = records }

    /// Projects and data items in the monitoring database.
    public init(database: MonitoringDatabase) { self.init(records: SQLiteWearableRecords(database)) }

    // MARK: Projects

    /// Every project, "No Project" first.
    public func projects() async throws(MonitoringError) -> [WearableProject] { try await records.projects() }

    /// The project with this identifier.
    public func project(_ id: Int) async throws(MonitoringError) -> WearableProject? { try await records.project(id) }

    /// A new project, numbered after the last one.
    ///
    /// - Throws: ``MonitoringError/invalid(field:reason:)`` for an empty or overlong name or description.
    public func createProject(name: String, description: String?, adminID: String?, at date: Date) async throws(MonitoringError) -> WearableProject {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...200).contains(name.count) else { throw .invalid(field: "name", reason: "must be 1 to 200 characters") }
        guard (description?.count ?? 0) <= 2000 else { throw .invalid(field: "description", reason: "must be at most 2000 characters") }
        do {
            try HealthText.validateFreeText(name, field: "name")
            try HealthText.validateFreeText(description, field: "description")
        } catch { throw MonitoringError(error) }
        return try await records.insertProject(name: name, description: description, adminID: adminID, startTime: date)
    }

    // MARK: Data items

    /// The data item with this identifier.
    public func item(_ id: Int64) async throws(MonitoringError) -> WearableDataItem? { try await records.item(id) }

    /// The data items `ownerID` sent, oldest first.
    public func items(ownedBy ownerID: String) async throws(MonitoringError) -> [WearableDataItem] {
        try await records.items(ownedByAnyOf: [ownerID])
    }

    /// The data items of these owners, oldest first.
    public func items(ownedByAnyOf ownerIDs: [String]) async throws(MonitoringError) -> [WearableDataItem] {
        guard !ownerIDs.isEmpty else { return [] }
        return try await records.items(ownedByAnyOf: ownerIDs)
    }

    /// Deletes every data item of `ownerID`; returns how many there were.
    @discardableResult
    public func deleteItems(ownedBy ownerID: String) async throws(MonitoringError) -> Int { try await records.deleteItems(ownedBy: ownerID) }

    /// Stores `reading` as a new item of `ownerID` received at `date`; `samples` makes
    /// the item's health samples from it and the owner's previous item of the same
    /// device, in the same transaction, so that their identifiers are stored with it.
    func add(
        _ reading: WearableReading, ownerID: String, at date: Date,
        samples: @escaping @Sendable (_ item: WearableDataItem, _ previous: WearableDataItem?) -> [HealthSample]
    ) async throws(MonitoringError) -> (item: WearableDataItem, samples: [HealthSample]) {
        try await records.add(reading, ownerID: ownerID, at: date, samples: samples)
    }

    /// Removes a data item; returns whether it existed.
    @discardableResult
    public func delete(_ id: Int64) async throws(MonitoringError) -> Bool { try await records.delete(id) }
}
