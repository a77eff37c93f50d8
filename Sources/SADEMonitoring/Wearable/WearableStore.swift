import Foundation
import GRDB
import SADEHealth

/// The wearable facade's projects and data items, in the monitoring database.
/// Every method is safe to call from any task.
public struct WearableStore: Sendable {
    let writer: any DatabaseWriter

    /// Projects and data items in `database`.
    public init(database: MonitoringDatabase) { writer = database.writer }

    // MARK: Projects

    /// Every project, "No Project" first.
    public func projects() throws(MonitoringError) -> [WearableProject] {
        try read { db in try Row.fetchAll(db, sql: "SELECT * FROM wearableProject ORDER BY id").map(WearableProject.init(row:)) }
    }

    /// The project with this identifier.
    public func project(_ id: Int) throws(MonitoringError) -> WearableProject? {
        try read { db in try Row.fetchOne(db, sql: "SELECT * FROM wearableProject WHERE id = ?", arguments: [id]).map(WearableProject.init(row:)) }
    }

    /// A new project, numbered after the last one.
    ///
    /// - Throws: ``MonitoringError/invalid(field:reason:)`` for an empty or overlong name or description.
    public func createProject(name: String, description: String?, adminID: String?, at date: Date) throws(MonitoringError) -> WearableProject {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...200).contains(name.count) else { throw .invalid(field: "name", reason: "must be 1 to 200 characters") }
        guard (description?.count ?? 0) <= 2000 else { throw .invalid(field: "description", reason: "must be at most 2000 characters") }
        do {
            try HealthText.validateFreeText(name, field: "name")
            try HealthText.validateFreeText(description, field: "description")
        } catch { throw MonitoringError(error) }
        return try write { db in
            try db.execute(
                sql: "INSERT INTO wearableProject (name, description, adminID, startTime) VALUES (?, ?, ?, ?)",
                arguments: [name, description, adminID, date.timeIntervalSince1970])
            return WearableProject(id: Int(db.lastInsertedRowID), name: name, description: description, adminID: adminID, startTime: date)
        }
    }

    // MARK: Data items

    /// The data item with this identifier.
    public func item(_ id: Int64) throws(MonitoringError) -> WearableDataItem? {
        try fetchItems("SELECT * FROM wearableDataItem WHERE id = ?", [id]).first
    }

    /// The data items `ownerID` sent, oldest first.
    public func items(ownedBy ownerID: String) throws(MonitoringError) -> [WearableDataItem] {
        try fetchItems("SELECT * FROM wearableDataItem WHERE ownerID = ? ORDER BY id", [ownerID])
    }

    /// The data items of these owners, oldest first.
    public func items(ownedByAnyOf ownerIDs: [String]) throws(MonitoringError) -> [WearableDataItem] {
        guard !ownerIDs.isEmpty else { return [] }
        let list = String(decoding: (try? JSONEncoder().encode(ownerIDs)) ?? Data("[]".utf8), as: UTF8.self)
        return try fetchItems("SELECT * FROM wearableDataItem WHERE ownerID IN (SELECT value FROM json_each(?)) ORDER BY id", [list])
    }

    /// Deletes every data item of `ownerID`; returns how many there were.
    @discardableResult
    public func deleteItems(ownedBy ownerID: String) throws(MonitoringError) -> Int {
        try write { db in
            try db.execute(sql: "DELETE FROM wearableDataItem WHERE ownerID = ?", arguments: [ownerID])
            return db.changesCount
        }
    }

    /// Stores `reading` as a new item of `ownerID` received at `date`; `samples` makes
    /// the item's health samples from it and the owner's previous item of the same
    /// device, in the same transaction, so that their identifiers are stored with it.
    func add(
        _ reading: WearableReading, ownerID: String, at date: Date,
        samples: (_ item: WearableDataItem, _ previous: WearableDataItem?) -> [HealthSample]
    ) throws(MonitoringError) -> (item: WearableDataItem, samples: [HealthSample]) {
        try write { db in
            let previous = try Row.fetchOne(
                db, sql: "SELECT * FROM wearableDataItem WHERE ownerID = ? AND device IS ? ORDER BY id DESC LIMIT 1",
                arguments: [ownerID, reading.device]
            ).map(WearableDataItem.init(row:))
            try db.execute(
                sql: """
                    INSERT INTO wearableDataItem (ownerID, heartBpm, gpsCoordinates, steps, distance, temperature, device, sentDate, sampleIDs)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, '')
                    """,
                arguments: [
                    ownerID, reading.heartBpm, reading.gpsCoordinates, reading.steps, reading.distance, reading.temperature, reading.device,
                    date.timeIntervalSince1970,
                ])
            var item = WearableDataItem(id: db.lastInsertedRowID, ownerID: ownerID, reading: reading, sentDate: date)
            let made = samples(item, previous)
            item.sampleIDs = made.map(\.id)
            try db.execute(
                sql: "UPDATE wearableDataItem SET sampleIDs = ? WHERE id = ?",
                arguments: [item.sampleIDs.map(\.uuidString).joined(separator: ","), item.id])
            return (item, made)
        }
    }

    /// Removes a data item; returns whether it existed.
    @discardableResult
    public func delete(_ id: Int64) throws(MonitoringError) -> Bool {
        try write { db in
            try db.execute(sql: "DELETE FROM wearableDataItem WHERE id = ?", arguments: [id])
            return db.changesCount > 0
        }
    }

    // MARK: Database access

    private func fetchItems(_ sql: String, _ arguments: StatementArguments) throws(MonitoringError) -> [WearableDataItem] {
        try read { db in try Row.fetchAll(db, sql: sql, arguments: arguments).map(WearableDataItem.init(row:)) }
    }

    private func read<T>(_ body: (Database) throws -> T) throws(MonitoringError) -> T {
        do { return try writer.read(body) } catch { throw MonitoringError(error) }
    }

    private func write<T>(_ body: (Database) throws -> T) throws(MonitoringError) -> T {
        do { return try writer.write(body) } catch { throw MonitoringError(error) }
    }
}

extension WearableProject {
    init(row: Row) {
        self.init(
            id: row["id"], name: row["name"], description: row["description"], adminID: row["adminID"],
            startTime: Date(timeIntervalSince1970: row["startTime"]))
    }
}

extension WearableDataItem {
    init(row: Row) {
        let reading = WearableReading(
            heartBpm: row["heartBpm"], gpsCoordinates: row["gpsCoordinates"], steps: row["steps"], distance: row["distance"],
            temperature: row["temperature"], device: row["device"])
        let sampleIDs = (row["sampleIDs"] as String).split(separator: ",").compactMap { UUID(uuidString: String($0)) }
        self.init(id: row["id"], ownerID: row["ownerID"], reading: reading, sentDate: Date(timeIntervalSince1970: row["sentDate"]), sampleIDs: sampleIDs)
    }
}
