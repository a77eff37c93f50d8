import Foundation
import PostgresNIO
import SADECore

/// Leases kept in PostgreSQL: a named thing (a patient's evaluation, a flat's agent, a
/// singleton such as a simulator) is held by one node at a time, until its lease runs
/// out unrenewed — when the node died, say — and another node takes it.
///
/// Taking, renewing and taking over are one atomic statement each, so two nodes racing
/// for a lease never both get it. Each change of holder raises the lease's *fencing
/// token*: work stamped with an older token than the current one is stale.
///
/// Times are the callers' (`now`), in seconds since Foundation's reference date, so
/// tests drive expiry with a manual clock; `nil` takes the database server's clock, one
/// clock for every node.
///
/// ```swift
/// let leases = try await PostgresLeases(pool)
/// let mine = try await leases.acquire(["patient-1", "patient-2"], for: "node-a", lasting: .seconds(10))
/// ```
public struct PostgresLeases: Sendable {
    /// One lease as the table holds it.
    public struct Lease: Sendable, Hashable {
        public let name: String
        public let holder: String
        /// When it runs out unless renewed.
        public let expiresAt: Date
        /// Raised by one at each change of holder.
        public let fencingToken: Int64

        public init(name: String, holder: String, expiresAt: Date, fencingToken: Int64) {
            self.name = name
            self.holder = holder
            self.expiresAt = expiresAt
            self.fencingToken = fencingToken
        }
    }

    private let pool: PostgresPool

    /// The leases of `pool`'s database (the table is made on first use by any node).
    public init(_ pool: PostgresPool) async throws(PostgresFailure) {
        self.pool = pool
        try await pool.migrate(
            "leases",
            [
                .init(
                    "v1-leases",
                    """
                    CREATE TABLE sade_lease (
                        name TEXT PRIMARY KEY,
                        holder TEXT NOT NULL,
                        expires_at DOUBLE PRECISION NOT NULL,
                        fencing BIGINT NOT NULL
                    );
                    CREATE INDEX sade_lease_by_holder ON sade_lease(holder);
                    """)
            ])
    }

    /// Takes or renews the leases in `names` for `holder` until `now + duration`: each
    /// that is free, run out, or already `holder`'s. Returns the ones it holds now with
    /// their fencing tokens; the others are another live holder's.
    public func acquire(_ names: [String], for holder: String, lasting duration: Duration, now: Date? = nil) async throws(PostgresFailure) -> [String: Int64] {
        guard !names.isEmpty else { return [:] }
        let rows = try await pool.query(
            """
            WITH clock AS (SELECT COALESCE(\(now?.timeIntervalSinceReferenceDate)::DOUBLE PRECISION,
                                           EXTRACT(EPOCH FROM clock_timestamp())::DOUBLE PRECISION - 978307200) AS now)
            INSERT INTO sade_lease AS lease (name, holder, expires_at, fencing)
            SELECT name, \(holder), clock.now + \(duration.seconds), 1 FROM UNNEST(\(Array(Set(names)).sorted())::TEXT[]) AS name, clock
            -- in one order on every node: rows are locked as they come, and two nodes taking
            -- overlapping sets in different orders could deadlock
            ORDER BY name COLLATE "C"
            ON CONFLICT (name) DO UPDATE SET
                holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at,
                fencing = lease.fencing + CASE WHEN lease.holder = EXCLUDED.holder THEN 0 ELSE 1 END
            WHERE lease.holder = EXCLUDED.holder OR lease.expires_at <= (SELECT now FROM clock)
            RETURNING name, fencing
            """)
        var held: [String: Int64] = [:]
        for row in rows {
            do {
                let (name, fencing) = try row.decode((String, Int64).self)
                held[name] = fencing
            } catch {
                throw PostgresFailure(error)
            }
        }
        return held
    }

    /// Gives up `holder`'s leases in `names` at once, so another node may take them.
    /// The rows stay (run out), so the next holder's fencing token is still higher than
    /// every one before it.
    public func release(_ names: [String], by holder: String) async throws(PostgresFailure) {
        guard !names.isEmpty else { return }
        try await pool.query("UPDATE sade_lease SET expires_at = '-Infinity' WHERE holder = \(holder) AND name = ANY(\(names))")
    }

    /// The leases that have not run out at `now`, by name.
    public func current(now: Date? = nil) async throws(PostgresFailure) -> [Lease] {
        let rows = try await pool.query(
            """
            SELECT name, holder, expires_at, fencing FROM sade_lease
            WHERE expires_at > COALESCE(\(now?.timeIntervalSinceReferenceDate)::DOUBLE PRECISION,
                                        EXTRACT(EPOCH FROM clock_timestamp())::DOUBLE PRECISION - 978307200)
            ORDER BY name COLLATE "C"
            """)
        do {
            return try rows.map { row in
                let (name, holder, expiresAt, fencing) = try row.decode((String, String, Double, Int64).self)
                return Lease(name: name, holder: holder, expiresAt: Date(timeIntervalSinceReferenceDate: expiresAt), fencingToken: fencing)
            }
        } catch {
            throw PostgresFailure(error)
        }
    }
}
