import Foundation
import PostgresNIO
import SADEPostgres

/// Push subscriptions in the outbox's PostgreSQL database, shared by every node (table
/// `push_subscription`, made by the outbox's migrations).
package struct PostgresPushSubscriptions: PushSubscriptionRecords {
    let pool: PostgresPool

    package init(pool: PostgresPool) {
        self.pool = pool
    }

    package func save(_ subscription: WebPushSubscription) async throws {
        _ = try await pool.query(
            """
            INSERT INTO push_subscription (id, account, endpoint, p256dh, auth, device, created_at)
            VALUES (\(subscription.id), \(subscription.account), \(subscription.endpoint), \(Base64URL.encode(subscription.keys.p256dh)),
                    \(Base64URL.encode(subscription.keys.auth)), \(subscription.device), \(subscription.createdAt.timeIntervalSince1970))
            ON CONFLICT (id) DO UPDATE SET account = excluded.account, endpoint = excluded.endpoint, p256dh = excluded.p256dh,
                auth = excluded.auth, device = excluded.device, created_at = excluded.created_at
            """)
    }

    package func subscriptions(of account: String) async throws -> [WebPushSubscription] {
        try await pool.query(
            """
            SELECT account, endpoint, p256dh, auth, device, created_at FROM push_subscription WHERE account = \(account)
            ORDER BY created_at, id
            """
        ).map(Self.subscription)
    }

    package func subscription(id: String) async throws -> WebPushSubscription? {
        try await pool.query("SELECT account, endpoint, p256dh, auth, device, created_at FROM push_subscription WHERE id = \(id)")
            .first.map(Self.subscription)
    }

    private static func subscription(_ row: PostgresRow) throws -> WebPushSubscription {
        let (account, endpoint, p256dh, auth, device, createdAt) = try row.decode((String, String, String, String, String, Double).self)
        return WebPushSubscription(
            account: account, endpoint: endpoint, keys: try WebPushSubscription.Keys(p256dh: p256dh, auth: auth), device: device,
            createdAt: Date(timeIntervalSince1970: createdAt))
    }

    @discardableResult
    package func remove(id: String) async throws -> Bool {
        !(try await pool.query("DELETE FROM push_subscription WHERE id = \(id) RETURNING 1")).isEmpty
    }

    @discardableResult
    package func removeAll(of account: String) async throws -> Int {
        try await pool.query("DELETE FROM push_subscription WHERE account = \(account) RETURNING 1").count
    }

    /// The table, a migration of the outbox's database.
    static let migration = PostgresPool.Migration(
        "v3-push-subscriptions",
        """
        CREATE TABLE push_subscription (
            id TEXT PRIMARY KEY,
            account TEXT NOT NULL,
            endpoint TEXT NOT NULL,
            p256dh TEXT NOT NULL,
            auth TEXT NOT NULL,
            device TEXT NOT NULL,
            created_at DOUBLE PRECISION NOT NULL
        );
        CREATE INDEX push_subscription_account ON push_subscription (account);
        """)
}
