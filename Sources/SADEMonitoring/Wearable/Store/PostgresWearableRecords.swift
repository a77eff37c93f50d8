import Foundation
import PostgresNIO
import SADEHealth
import SADEPostgres

/// The wearable facade's projects and data items in PostgreSQL, shared by every node:
/// an item posted to one node is listed, and deleted, on all.
public struct PostgresWearableRecords: WearableRecords {
    private let pool: PostgresPool

    /// The records in `pool`'s database; the tables are made on first use by any node.
    public init(_ pool: PostgresPool) async throws(MonitoringError) {
        self.pool = pool
        do {
            try await pool.migrate(
                "wearable",
                [
                    .init(
                        "v1-projects-and-items",
                        """
                        CREATE TABLE wearable_project (
                            id BIGSERIAL PRIMARY KEY, name TEXT NOT NULL, description TEXT, admin_id TEXT,
                            start_time DOUBLE PRECISION NOT NULL);
                        INSERT INTO wearable_project (id, name, description, start_time)
                            VALUES (0, 'No Project', 'Where every user is until an admin assigns them', extract(epoch FROM now()));
                        CREATE TABLE wearable_data_item (
                            id BIGSERIAL PRIMARY KEY, owner_id TEXT NOT NULL, heart_bpm DOUBLE PRECISION NOT NULL, gps_coordinates TEXT,
                            steps BIGINT NOT NULL, distance DOUBLE PRECISION NOT NULL, temperature DOUBLE PRECISION NOT NULL, device TEXT,
                            sent_date DOUBLE PRECISION NOT NULL, sample_ids TEXT NOT NULL);
                        CREATE INDEX wearable_data_item_owner ON wearable_data_item (owner_id, device, id);
                        """),
                ])
        } catch {
            throw MonitoringError(opening: "the wearable records", error)
        }
    }

    public func projects() async throws(MonitoringError) -> [WearableProject] {
        try await rows("SELECT \(unescaped: Self.projectColumns) FROM wearable_project ORDER BY id").map(Self.project)
    }

    public func project(_ id: Int) async throws(MonitoringError) -> WearableProject? {
        try await rows("SELECT \(unescaped: Self.projectColumns) FROM wearable_project WHERE id = \(id)").first.map(Self.project)
    }

    public func insertProject(name: String, description: String?, adminID: String?, startTime: Date) async throws(MonitoringError) -> WearableProject {
        let id = try await rows(
            """
            INSERT INTO wearable_project (name, description, admin_id, start_time)
            VALUES (\(name), \(description), \(adminID), \(startTime.timeIntervalSince1970)) RETURNING id
            """
        ).first.map { row throws(MonitoringError) in
            do { return try row.decode(Int.self) } catch { throw Self.unreadable(error) }
        } ?? 0
        return WearableProject(id: id, name: name, description: description, adminID: adminID, startTime: startTime)
    }

    public func item(_ id: Int64) async throws(MonitoringError) -> WearableDataItem? {
        try await rows("SELECT \(unescaped: Self.itemColumns) FROM wearable_data_item WHERE id = \(id)").first.map(Self.item)
    }

    public func items(ownedByAnyOf ownerIDs: [String]) async throws(MonitoringError) -> [WearableDataItem] {
        try await rows("SELECT \(unescaped: Self.itemColumns) FROM wearable_data_item WHERE owner_id = ANY(\(ownerIDs)) ORDER BY id").map(Self.item)
    }

    public func deleteItems(ownedBy ownerID: String) async throws(MonitoringError) -> Int {
        try await rows("DELETE FROM wearable_data_item WHERE owner_id = \(ownerID) RETURNING id").count
    }

    public func add(
        _ reading: WearableReading, ownerID: String, at date: Date,
        samples: @escaping @Sendable (_ item: WearableDataItem, _ previous: WearableDataItem?) -> [HealthSample]
    ) async throws(MonitoringError) -> (item: WearableDataItem, samples: [HealthSample]) {
        let pool = self.pool
        do {
            return try await pool.transaction { connection in
                // One item of an owner at a time across nodes: each reads the one before it.
                try await connection.rows("SELECT pg_advisory_xact_lock(hashtext('wearable:' || \(ownerID)))", pool)
                let previous = try await connection.rows(
                    """
                    SELECT \(unescaped: Self.itemColumns) FROM wearable_data_item
                    WHERE owner_id = \(ownerID) AND device IS NOT DISTINCT FROM \(reading.device) ORDER BY id DESC LIMIT 1
                    """, pool
                ).first.map(Self.item)
                let id = try await connection.rows(
                    """
                    INSERT INTO wearable_data_item (owner_id, heart_bpm, gps_coordinates, steps, distance, temperature, device, sent_date, sample_ids)
                    VALUES (\(ownerID), \(reading.heartBpm), \(reading.gpsCoordinates), \(reading.steps), \(reading.distance), \(reading.temperature),
                            \(reading.device), \(date.timeIntervalSince1970), '')
                    RETURNING id
                    """, pool
                ).first?.decode(Int64.self) ?? 0
                var item = WearableDataItem(id: id, ownerID: ownerID, reading: reading, sentDate: date)
                let made = samples(item, previous)
                item.sampleIDs = made.map(\.id)
                try await connection.rows("UPDATE wearable_data_item SET sample_ids = \(item.storedSampleIDs) WHERE id = \(id)", pool)
                return (item, made)
            }
        } catch {
            throw Self.error(error)
        }
    }

    public func delete(_ id: Int64) async throws(MonitoringError) -> Bool {
        try await !rows("DELETE FROM wearable_data_item WHERE id = \(id) RETURNING id").isEmpty
    }

    // MARK: Rows

    private static let projectColumns = "id, name, description, admin_id, start_time"
    private static let itemColumns = "id, owner_id, heart_bpm, gps_coordinates, steps, distance, temperature, device, sent_date, sample_ids"

    private static func project(_ row: PostgresRow) throws(MonitoringError) -> WearableProject {
        let columns: (Int, String, String?, String?, Double)
        do { columns = try row.decode((Int, String, String?, String?, Double).self) } catch { throw unreadable(error) }
        let (id, name, description, adminID, start) = columns
        return WearableProject(id: id, name: name, description: description, adminID: adminID, startTime: Date(timeIntervalSince1970: start))
    }

    private static func item(_ row: PostgresRow) throws(MonitoringError) -> WearableDataItem {
        let columns: (Int64, String, Double, String?, Int, Double, Double, String?, Double, String)
        do {
            columns = try row.decode((Int64, String, Double, String?, Int, Double, Double, String?, Double, String).self)
        } catch { throw unreadable(error) }
        let (id, owner, heart, gps, steps, distance, temperature, device, sent, sampleIDs) = columns
        let reading = WearableReading(heartBpm: heart, gpsCoordinates: gps, steps: steps, distance: distance, temperature: temperature, device: device)
        return WearableDataItem(
            id: id, ownerID: owner, reading: reading, sentDate: Date(timeIntervalSince1970: sent),
            sampleIDs: WearableDataItem.sampleIDs(stored: sampleIDs))
    }

    private static func unreadable(_ error: any Error) -> MonitoringError { .storage("a wearable row could not be read: \(error)") }

    private func rows(_ query: PostgresQuery) async throws(MonitoringError) -> [PostgresRow] {
        do { return try await pool.query(query) } catch { throw Self.error(error) }
    }

    private static func error(_ error: any Error) -> MonitoringError {
        if let error = error as? MonitoringError { return error }
        let failure = PostgresFailure(error)
        return failure.isUnavailable ? .unavailable("wearable records: \(failure)") : .storage("wearable records: \(failure)")
    }
}
