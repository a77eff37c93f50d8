import Foundation
import NIOCore
import PostgresNIO
import SADEHealth
import SADEHealthPostgres
import SADEPostgres

/// `pg-ingest`: batches of vital-sign samples saved by the PostgreSQL health store —
/// one writer, four writers on one node, four on each of two nodes (two pools on one
/// database) — against a raw `COPY` of the same rows, a batch per `COPY`, into a table
/// of the same columns and indexes. On demand: it needs `--database postgres://…`,
/// where it makes a database of its own and drops it at the end.
struct PostgresIngestSuite: BenchSuite {
    let name = "pg-ingest"
    let workload = "batches of 100 vital-sign samples saved by the PostgreSQL health store (1 and 4 writers, 1 and 2 nodes); baseline: raw COPY of the same rows"
    var isOnDemand: Bool { true }

    /// Concurrent writers per node in the concurrent figures.
    static let writers = 4

    func run(in context: BenchContext) async throws -> [BenchFigure] {
        try await BenchDatabase.with(context, suite: name) { location in try await measure(location, context) }
    }

    private func measure(_ location: PostgresLocation, _ context: BenchContext) async throws -> [BenchFigure] {
        let count = context.size(20_000, quick: 1_000)
        let nodes = [
            try await PostgresHealthStore(PostgresPool.connect(location, maximumConnections: Self.writers)),
            try await PostgresHealthStore(PostgresPool.connect(location, maximumConnections: Self.writers)),
        ]
        defer { Task { for node in nodes { await node.database.close() } } }
        try await Self.createRawTable(nodes[0].database)
        let one = try await context.measure { try await Self.save(count, into: [nodes[0]], writers: 1) }
        let oneNode = try await context.measure { try await Self.save(count, into: [nodes[0]], writers: Self.writers) }
        let twoNodes = try await context.measure { try await Self.save(count, into: nodes, writers: Self.writers) }
        let raw = try await context.measure { try await Self.copy(count, into: nodes[0].database) }
        return [
            context.figure(
                "samples/s (1 node, 1 writer)", one["rate"], unit: "samples/s", baseline: raw["rate"], baselineName: "raw COPY", target: "≥ 0.5 × raw"),
            context.figure(
                "samples/s (1 node, \(Self.writers) writers)", oneNode["rate"], unit: "samples/s", baseline: one["rate"], baselineName: "1 writer"),
            context.figure(
                "samples/s (2 nodes, \(Self.writers) writers each)", twoNodes["rate"], unit: "samples/s", baseline: oneNode["rate"],
                baselineName: "1 node"),
        ]
    }

    /// Saves `count` new samples in batches, `writers` at a time on each node.
    private static func save(_ count: Int, into nodes: [PostgresHealthStore], writers: Int) async throws -> [String: Double] {
        let lanes = nodes.count * writers
        let work = (0..<lanes).map { _ in IngestSuite.batches(count / lanes) }
        let seconds = try await BenchClock.seconds {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (lane, batches) in work.enumerated() {
                    let node = nodes[lane % nodes.count]
                    group.addTask {
                        for batch in batches { try await node.save(batch, as: .system) }
                    }
                }
                try await group.waitForAll()
            }
        }
        return ["rate": Double(work.reduce(0) { $0 + $1.reduce(0) { $0 + $1.count } }) / seconds]
    }

    /// A table with the sample table's columns and indexes, and no counter.
    private static func createRawTable(_ pool: PostgresPool) async throws {
        try await pool.query("CREATE TABLE raw_sample (LIKE sample INCLUDING ALL)")
    }

    /// The baseline: the same rows in the same text as the store's (made before the clock
    /// starts), a `COPY … FROM STDIN` per batch in a transaction of its own.
    private static func copy(_ count: Int, into pool: PostgresPool) async throws -> [String: Double] {
        let batches = IngestSuite.batches(count)
        let firstNumber = try await pool.query("SELECT COALESCE(MAX(change_number), 0) FROM raw_sample").first?.decode(Int64.self) ?? 0
        let text = try batches.enumerated().map { index, batch in
            try PostgresSampleRows(batch).copyText(from: firstNumber + 1 + Int64(index * IngestSuite.batchSize))
        }
        let logger = pool.logger
        let seconds = try await BenchClock.seconds {
            for rows in text {
                try await pool.transaction { connection in
                    try await connection.copyFrom(
                        table: "raw_sample",
                        columns: PostgresSampleRows.columns,
                        logger: logger
                    ) { writer in
                        try await writer.write(ByteBuffer(string: rows))
                    }
                }
            }
        }
        return ["rate": Double(count) / seconds]
    }
}
