import Foundation
import GRDB
import SADEHealth

/// The wearable facade's projects and data items in the monitoring database (SQLite).
public struct SQLiteWearableRecords: WearableRecords {
    let writer: any DatabaseWriter

    /// The records in `database`.
    public init(_ database: MonitoringDatabase) { writer = database.writer }

    public func projects() async throws(MonitoringError) -> [WearableProject] {
        try await read { db in try Row.fetchAll(db, sql: "SELECT * FROM wearableProject ORDER BY id").map(WearableProject.init(row:)) }
    }

    public func project(_ id: Int) async throws(MonitoringError) -> WearableProject? {
        try await read { db in try Row.fetchOne(db, sql: "SELECT * FROM wearableProject WHERE id = ?", arguments: [id]).map(WearableProject.init(row:)) }
    }

    public func insertProject(name: String, description: String?, adminID: String?, startTime: Date) async throws(MonitoringError) -> WearableProject {
        try await write { db in
            try db.execute(
                sql: "INSERT INTO wearableProject (name, description, adminID, startTime) VALUES (?, ?, ?, ?)",
                arguments: [name, description, adminID, startTime.timeIntervalSince1970])
            return WearableProject(id: Int(db.lastInsertedRowID), name: name, description: description, adminID: adminID, startTime: startTime)
        }
    }

    public func item(_ id: Int64) async throws(MonitoringError) -> WearableDataItem? {
        try await read { db in try Row.fetchOne(db, sql: "SELECT * FROM wearableDataItem WHERE id = ?", arguments: [id]).map(WearableDataItem.init(row:)) }
    }

    public func items(ownedByAnyOf ownerIDs: [String]) async throws(MonitoringError) -> [WearableDataItem] {
        let list = String(decoding: (try? JSONEncoder().encode(ownerIDs)) ?? Data("[]".utf8), as: UTF8.self)
        return try await read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM wearableDataItem WHERE ownerID IN (SELECT value FROM json_each(?)) ORDER BY id", arguments: [list])
                .map(WearableDataItem.init(row:))
        }
    }

    public func deleteItems(ownedBy ownerID: String) async throws(MonitoringError) -> Int {
        try await write { db in
            try db.execute(sql: "DELETE FROM wearableDataItem WHERE ownerID = ?", arguments: [ownerID])
            return db.changesCount
        }
    }

    public func add(
        _ reading: WearableReading, ownerID: String, at date: Date,
        samples: @escaping @Sendable (_ item: WearableDataItem, _ previous: WearableDataItem?) -> [HealthSample]
    ) async throws(MonitoringError) -> (item: WearableDataItem, samples: [HealthSample]) {
        try await write { db in
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
            try db.execute(sql: "UPDATE wearableDataItem SET sampleIDs = ? WHERE id = ?", arguments: [item.storedSampleIDs, item.id])
            return (item, made)
        }
    }

    public func delete(_ id: Int64) async throws(MonitoringError) -> Bool {
        try await write { db in
            try db.execute(sql: "DELETE FROM wearableDataItem WHERE id = ?", arguments: [id])
            return db.changesCount > 0
        }
    }

    // MARK: Database access

    private func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(MonitoringError) -> T {
        do { return try await writer.read(body) } catch { throw MonitoringError(error) }
    }

    private func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(MonitoringError) -> T {
        do { return try await writer.write(body) } catch { throw MonitoringError(error) }
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
        self.init(id: row["id"], ownerID: row["ownerID"], reading: reading, sentDate: Date(timeIntervalSince1970: row["sentDate"]),
                  sampleIDs: Self.sampleIDs(stored: row["sampleIDs"]))
    }

    /// The samples' identifiers as stored: comma-separated UUIDs.
    var storedSampleIDs: String { sampleIDs.map(\.uuidString).joined(separator: ",") }

    /// Sample identifiers read back from ``storedSampleIDs``.
    static func sampleIDs(stored: String) -> [UUID] {
        stored.split(separator: ",").compactMap { UUID(uuidString: String($0)) }
    }
}
