import Foundation
import GRDBSQLite
import SADEHome
import SADEHomeSQLite

/// `home`: the smart home's recorder (Home Assistant's recorder is the anchor): state
/// events ingested durably, a device's 30-day history, 30 days of hourly statistics
/// of 20 devices, and the WebSocket bus's fan-out to 50 subscribed clients.
struct HomeSuite: BenchSuite {
    let name = "home"
    let workload = """
        batches of 500 state events recorded durably (SQLite file, WAL, hourly statistics kept); 30-day history of one device; \
        hourly statistics 30 days × 20 devices; WebSocket fan-out to 50 clients at 1,000 events/s; baseline: raw batched SQLite insert
        """

    /// Events per recorded batch (a gateway's batch).
    static let batchSize = 500

    func run(in context: BenchContext) async throws -> [BenchFigure] {
        let count = context.size(200_000, quick: 5_000)
        let ingest = try await context.measure { try await Self.ingest(count) }
        let raw = try await context.measure { try Self.rawInsert(count) }
        let days = context.size(30, quick: 2)
        let queries = try await Self.queries(days: days, devices: 20, runs: context.size(50, quick: 5))
        let fanOut = try await HomeFanOut(clients: context.size(50, quick: 5), rate: 1000, seconds: context.quick ? 1 : 5).run()
        return [
            context.figure("events/s recorded", ingest["rate"], unit: "events/s", baseline: raw["rate"], baselineName: "raw SQLite", target: "≥ 50,000"),
            context.figure("\(days)-day history of one device, p95", BenchStatistic([queries.historyP95]), unit: "ms", target: "≤ 50 ms"),
            context.figure("hourly statistics \(days) d × 20 devices, p95", BenchStatistic([queries.statisticsP95]), unit: "ms", target: "≤ 20 ms"),
            context.figure("events in one device's \(days)-day history", BenchStatistic([Double(queries.historyEvents)]), unit: "events"),
            context.figure("fan-out to \(fanOut.clients) clients, p50", BenchStatistic([fanOut.p50]), unit: "ms"),
            context.figure("fan-out to \(fanOut.clients) clients, p99", BenchStatistic([fanOut.p99]), unit: "ms", target: "≤ 20 ms at 1,000 events/s"),
            context.figure("fan-out deliveries", BenchStatistic([Double(fanOut.delivered)]), unit: "messages", baseline: BenchStatistic([Double(fanOut.expected)]),
                           baselineName: "sent × clients"),
        ]
    }

    /// A flat of `devices` meters and detectors, for the workloads.
    static func plan(devices: Int) -> FlatPlan {
        let kinds: [DeviceKind] = [.temperature, .power, .motion, .contact, .brightness]
        let room = RoomPlan(
            name: "Room", type: .livingRoom, polygon: [PlanPoint(x: 0, y: 0), PlanPoint(x: 5, y: 0), PlanPoint(x: 5, y: 5), PlanPoint(x: 0, y: 5)],
            devices: (0..<devices).map { DevicePlan(name: "Device \($0)", kind: kinds[$0 % kinds.count], position: PlanPoint(x: 1, y: 1)) })
        return FlatPlan(name: "Bench flat", rooms: [room])
    }

    /// `count` events of 20 devices, one a second each in turn, starting a day ago.
    static func events(_ count: Int, devices: [DeviceID], start: Date) -> [StateEvent] {
        (0..<count).map { index in
            StateEvent(device: devices[index % devices.count], value: Double(index % 97) / 4, battery: 90, time: start.addingTimeInterval(Double(index) / 20))
        }
    }

    /// One run: a fresh file store; the events recorded in batches.
    private static func ingest(_ count: Int) async throws -> [String: Double] {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try SQLiteHomeStore(path: directory.path + "/" + SQLiteHomeStore.fileName)
        let flat = try await store.createFlat(plan(devices: 20))
        let batches = events(count, devices: flat.devices.map(\.id), start: Date().addingTimeInterval(-86_400)).chunked(batchSize)
        let seconds = try await BenchClock.seconds {
            for batch in batches { try await store.record(batch) }
        }
        return ["rate": Double(count) / seconds]
    }

    /// The baseline: the same rows inserted with SQLite's C interface into a table with
    /// the same columns and indexes, one prepared statement, one transaction per batch.
    private static func rawInsert(_ count: Int) throws -> [String: Double] {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var connection: OpaquePointer?
        guard sqlite3_open(directory.path + "/raw.sqlite", &connection) == SQLITE_OK else { throw BenchError.unexpected("cannot open raw.sqlite") }
        defer { sqlite3_close(connection) }
        func execute(_ sql: String) throws {
            guard sqlite3_exec(connection, sql, nil, nil, nil) == SQLITE_OK else {
                throw BenchError.unexpected("SQLite: \(String(cString: sqlite3_errmsg(connection)))")
            }
        }
        try execute("""
            PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;
            CREATE TABLE event (seq INTEGER PRIMARY KEY, device INTEGER NOT NULL, flat INTEGER NOT NULL, value REAL NOT NULL,
                                battery INTEGER, time INTEGER NOT NULL);
            CREATE INDEX event_device_time ON event(device, time); CREATE INDEX event_flat_time ON event(flat, time);
            """)
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(connection, "INSERT INTO event (device, flat, value, battery, time) VALUES (?, 1, ?, ?, ?)", -1, &statement, nil)
            == SQLITE_OK
        else { throw BenchError.unexpected("prepare") }
        defer { sqlite3_finalize(statement) }
        let batches = events(count, devices: Array(1...20), start: Date().addingTimeInterval(-86_400)).chunked(batchSize)
        let start = BenchClock.clock.now
        for batch in batches {
            try execute("BEGIN IMMEDIATE")
            for event in batch {
                sqlite3_reset(statement)
                sqlite3_bind_int64(statement, 1, event.device)
                sqlite3_bind_double(statement, 2, event.value)
                sqlite3_bind_int64(statement, 3, Int64(event.battery ?? 0))
                sqlite3_bind_int64(statement, 4, Int64(event.time.timeIntervalSince1970 * 1000))
                guard sqlite3_step(statement) == SQLITE_DONE else { throw BenchError.unexpected("insert") }
            }
            try execute("COMMIT")
        }
        return ["rate": Double(count) / (BenchClock.clock.now - start).seconds]
    }

    /// A store with `days` of one event a minute from each of `devices`; then the
    /// history of one device and the hourly statistics of all, `runs` times each.
    private static func queries(days: Int, devices: Int, runs: Int) async throws -> (historyP95: Double, statisticsP95: Double, historyEvents: Int) {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try SQLiteHomeStore(path: directory.path + "/" + SQLiteHomeStore.fileName)
        let flat = try await store.createFlat(plan(devices: devices))
        let end = Date(timeIntervalSince1970: 1_772_409_600)
        let start = end.addingTimeInterval(-Double(days) * 86_400)
        let ids = flat.devices.map(\.id)
        var batch: [StateEvent] = []
        for minute in 0..<(days * 1440) {
            let time = start.addingTimeInterval(Double(minute) * 60)
            for (index, device) in ids.enumerated() {
                batch.append(StateEvent(device: device, value: 20 + Double((minute + index) % 60) / 10, time: time))
            }
            if batch.count >= 5000 {
                try await store.record(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        if !batch.isEmpty { try await store.record(batch) }
        var history: [Double] = [], statistics: [Double] = []
        var historyEvents = 0
        for _ in 0..<runs {
            let clock = BenchClock.clock
            let before = clock.now
            historyEvents = try await store.history(device: ids[0], from: start, to: end, limit: nil).count
            history.append((clock.now - before).seconds * 1000)
            let middle = clock.now
            let rows = try await store.statistics(devices: ids, from: start, to: end, period: .hour)
            statistics.append((clock.now - middle).seconds * 1000)
            guard rows.count == ids.count else { throw BenchError.unexpected("statistics for \(rows.count) of \(ids.count) devices") }
        }
        return (percentile(history, 0.95), percentile(statistics, 0.95), historyEvents)
    }

    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))]
    }
}

extension Array {
    /// The array cut into pieces of at most `size`.
    func chunked(_ size: Int) -> [[Element]] {
        stride(from: 0, to: count, by: size).map { Array(self[$0..<Swift.min($0 + size, count)]) }
    }
}
