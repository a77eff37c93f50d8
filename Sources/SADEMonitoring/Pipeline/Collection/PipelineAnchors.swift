import GRDB
import SADEHealth

/// How far the pipeline has evaluated the health store: one anchor per sample type,
/// persisted in `pipeline_anchor` once a batch has been evaluated.
struct PipelineAnchors: Sendable {
    let database: any DatabaseWriter

    /// The persisted anchors, by type identifier; a type never evaluated is absent.
    func load() throws -> [String: HealthAnchor] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT type, anchor FROM pipeline_anchor").reduce(into: [:]) { anchors, row in
                anchors[row["type"]] = HealthAnchor(rawValue: row["anchor"])
            }
        }
    }

    /// Moves the anchors forward (never back: batches may be confirmed late).
    func advance(to anchors: [String: HealthAnchor]) throws {
        guard !anchors.isEmpty else { return }
        try database.write { db in
            for (type, anchor) in anchors {
                try db.execute(
                    sql: """
                        INSERT INTO pipeline_anchor (type, anchor) VALUES (?, ?)
                        ON CONFLICT(type) DO UPDATE SET anchor = max(anchor, excluded.anchor)
                        """,
                    arguments: [type, anchor.rawValue])
            }
        }
    }
}
