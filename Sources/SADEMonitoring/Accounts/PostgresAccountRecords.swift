import Foundation
import PostgresNIO
import SADEHealth
import SADEPostgres

/// Accounts and device tokens in PostgreSQL, shared by every node: a login or a device
/// token issued on one node works on all. Usernames are unique regardless of ASCII case
/// (`lower(username COLLATE "C")`, as SQLite's `NOCASE`: "Émile" and "émile" are two).
public struct PostgresAccountRecords: AccountRecords, DeviceTokenRecords {
    private let pool: PostgresPool

    /// The records in `pool`'s database; the tables are made on first use by any node.
    public init(_ pool: PostgresPool) async throws(MonitoringError) {
        self.pool = pool
        do {
            try await pool.migrate(
                "accounts",
                [
                    .init(
                        "v1-accounts",
                        """
                        CREATE TABLE account (
                            id TEXT PRIMARY KEY,
                            username TEXT NOT NULL,
                            name TEXT NOT NULL,
                            role TEXT NOT NULL,
                            email TEXT,
                            staff_id TEXT,
                            patient_id TEXT,
                            project_id BIGINT NOT NULL DEFAULT 0,
                            location TEXT,
                            created_at DOUBLE PRECISION NOT NULL,
                            password_hash TEXT NOT NULL
                        );
                        CREATE UNIQUE INDEX account_username ON account (lower(username COLLATE "C"));
                        CREATE TABLE device_token (
                            id TEXT PRIMARY KEY,
                            secret_hash TEXT NOT NULL UNIQUE,
                            patient_id TEXT NOT NULL,
                            label TEXT NOT NULL,
                            created_at DOUBLE PRECISION NOT NULL,
                            revoked_at DOUBLE PRECISION
                        );
                        CREATE INDEX device_token_by_patient ON device_token (patient_id);
                        """),
                    .init("v2-credentials-changed", "ALTER TABLE account ADD COLUMN credentials_changed_at DOUBLE PRECISION"),
                    .init("v3-relatives", "ALTER TABLE account ADD COLUMN relative_of TEXT"),
                ])
        } catch {
            throw Self.error(error)
        }
    }

    // MARK: Accounts

    private static let accountColumns =
        "id, username, name, role, email, staff_id, patient_id, project_id, location, created_at, password_hash, credentials_changed_at, relative_of"

    public func insert(_ account: UserAccount, passwordHash: String) async throws(MonitoringError) {
        do {
            try await pool.query(
                """
                INSERT INTO account (\(unescaped: Self.accountColumns))
                VALUES (\(account.id), \(account.username), \(account.name), \(account.role.rawValue), \(account.email), \(account.staffID),
                        \(account.patientID?.rawValue), \(account.projectID), \(account.location), \(account.createdAt.timeIntervalSince1970),
                        \(passwordHash), \(account.credentialsChangedAt?.timeIntervalSince1970), \(AccountRow.encoded(account.relativeOf)))
                """)
        } catch let failure where failure.isUniqueViolation && failure.constraint == "account_username" {
            throw .conflict("the username \(account.username) is taken")
        } catch {
            throw Self.error(error)
        }
    }

    public func update(_ account: UserAccount) async throws(MonitoringError) {
        let rows: [PostgresRow]
        do {
            rows = try await pool.query(
                """
                UPDATE account SET username = \(account.username), name = \(account.name), role = \(account.role.rawValue),
                    email = \(account.email), staff_id = \(account.staffID), patient_id = \(account.patientID?.rawValue),
                    project_id = \(account.projectID), location = \(account.location), relative_of = \(AccountRow.encoded(account.relativeOf))
                WHERE id = \(account.id) RETURNING id
                """)
        } catch let failure where failure.isUniqueViolation && failure.constraint == "account_username" {
            throw .conflict("the username \(account.username) is taken")
        } catch {
            throw Self.error(error)
        }
        guard !rows.isEmpty else { throw .notFound("no account \(account.id)") }
    }

    public func setPasswordHash(_ hash: String, of id: String, at now: Date) async throws(MonitoringError) {
        let rows = try await query(
            """
            UPDATE account SET password_hash = \(hash),
                credentials_changed_at = GREATEST(COALESCE(credentials_changed_at, 0) + 0.001, \(now.timeIntervalSince1970))
            WHERE id = \(id) RETURNING id
            """)
        guard !rows.isEmpty else { throw .notFound("no account \(id)") }
    }

    public func endSessions(of id: String, at now: Date) async throws(MonitoringError) {
        let rows = try await query(
            """
            UPDATE account SET credentials_changed_at = GREATEST(COALESCE(credentials_changed_at, 0) + 0.001, \(now.timeIntervalSince1970))
            WHERE id = \(id) RETURNING id
            """)
        guard !rows.isEmpty else { throw .notFound("no account \(id)") }
    }

    public func delete(_ id: String) async throws(MonitoringError) -> Bool {
        try await !query("DELETE FROM account WHERE id = \(id) RETURNING id").isEmpty
    }

    public func account(id: String) async throws(MonitoringError) -> (account: UserAccount, passwordHash: String)? {
        try await query("SELECT \(unescaped: Self.accountColumns) FROM account WHERE id = \(id)").first.map(Self.account)
    }

    public func account(username: String) async throws(MonitoringError) -> (account: UserAccount, passwordHash: String)? {
        try await query(
            """
            SELECT \(unescaped: Self.accountColumns) FROM account WHERE lower(username COLLATE "C") = lower(\(username) COLLATE "C")
            """
        ).first.map(Self.account)
    }

    public func accounts(role: UserRole?) async throws(MonitoringError) -> [UserAccount] {
        try await query(
            """
            SELECT \(unescaped: Self.accountColumns) FROM account WHERE \(role?.rawValue)::TEXT IS NULL OR role = \(role?.rawValue)
            ORDER BY lower(username COLLATE "C"), id COLLATE "C"
            """
        ).map { row throws(MonitoringError) in try Self.account(row).account }
    }

    public func accountCount() async throws(MonitoringError) -> Int {
        let rows = try await query("SELECT COUNT(*) FROM account")
        do {
            return try rows.first?.decode(Int.self) ?? 0
        } catch {
            throw .storage("the account count is unreadable: \(error)")
        }
    }

    private static func account(_ row: PostgresRow) throws(MonitoringError) -> (account: UserAccount, passwordHash: String) {
        do {
            let (id, username, name, role, email, staffID, patientID, projectID, location, createdAt, hash, changedAt, relativeOf) = try row.decode(
                (String, String, String, String, String?, String?, String?, Int, String?, Double, String, Double?, String?).self)
            let account = UserAccount(
                id: id, username: username, name: name, role: UserRole(rawValue: role) ?? .patient, email: email, staffID: staffID,
                patientID: patientID.map(PatientID.init(rawValue:)), projectID: projectID, location: location,
                createdAt: Date(timeIntervalSince1970: createdAt), credentialsChangedAt: changedAt.map(Date.init(timeIntervalSince1970:)),
                relativeOf: AccountRow.decoded(relativeOf))
            return (account, hash)
        } catch {
            throw .storage("an account row is unreadable: \(error)")
        }
    }

    // MARK: Device tokens

    public func insert(_ token: DeviceToken, secretDigest: String) async throws(MonitoringError) {
        try await query(
            """
            INSERT INTO device_token (id, secret_hash, patient_id, label, created_at)
            VALUES (\(token.id), \(secretDigest), \(token.patientID.rawValue), \(token.label), \(token.createdAt.timeIntervalSince1970))
            """)
    }

    public func liveToken(secretDigest: String) async throws(MonitoringError) -> DeviceToken? {
        try await query(
            "SELECT id, patient_id, label, created_at, revoked_at FROM device_token WHERE secret_hash = \(secretDigest) AND revoked_at IS NULL"
        ).first.map(Self.token)
    }

    public func tokens(for patient: PatientID) async throws(MonitoringError) -> [DeviceToken] {
        try await query(
            """
            SELECT id, patient_id, label, created_at, revoked_at FROM device_token WHERE patient_id = \(patient.rawValue)
            ORDER BY created_at, id COLLATE "C"
            """
        ).map(Self.token)
    }

    public func revoke(_ id: String, at now: Date) async throws(MonitoringError) -> Bool {
        try await !query(
            "UPDATE device_token SET revoked_at = \(now.timeIntervalSince1970) WHERE id = \(id) AND revoked_at IS NULL RETURNING id"
        ).isEmpty
    }

    public func deleteTokens(of patient: PatientID) async throws(MonitoringError) -> Int {
        try await query("DELETE FROM device_token WHERE patient_id = \(patient.rawValue) RETURNING id").count
    }

    private static func token(_ row: PostgresRow) throws(MonitoringError) -> DeviceToken {
        do {
            let (id, patient, label, createdAt, revokedAt) = try row.decode((String, String, String, Double, Double?).self)
            return DeviceToken(
                id: id, patientID: PatientID(rawValue: patient), label: label, createdAt: Date(timeIntervalSince1970: createdAt),
                revokedAt: revokedAt.map(Date.init(timeIntervalSince1970:)))
        } catch {
            throw .storage("a device token row is unreadable: \(error)")
        }
    }

    // MARK: Database access

    @discardableResult
    private func query(_ query: PostgresQuery) async throws(MonitoringError) -> [PostgresRow] {
        do {
            return try await pool.query(query)
        } catch {
            throw Self.error(error)
        }
    }

    /// A database failure as the application's error: 503 when the server cannot be reached.
    private static func error(_ error: any Error) -> MonitoringError {
        let failure = PostgresFailure(error)
        return failure.isUnavailable ? .unavailable(failure.description) : .storage(failure.description)
    }
}
