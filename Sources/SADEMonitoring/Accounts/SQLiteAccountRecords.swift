import Foundation
import GRDB
import SADEHealth

/// Accounts and device tokens in the monitoring database's SQLite file (GRDB).
struct SQLiteAccountRecords: AccountRecords, DeviceTokenRecords {
    let writer: any DatabaseWriter

    // MARK: Accounts

    func insert(_ account: UserAccount, passwordHash: String) async throws(MonitoringError) {
        try write { db in
            if try AccountRow.filter(AccountRow.Columns.username.collating(.nocase) == account.username).fetchCount(db) > 0 {
                throw MonitoringError.conflict("the username \(account.username) is taken")
            }
            try AccountRow(account, passwordHash: passwordHash).insert(db)
        }
    }

    func update(_ account: UserAccount) async throws(MonitoringError) {
        try write { db in
            guard var row = try AccountRow.fetchOne(db, key: account.id) else {
                throw MonitoringError.notFound("no account \(account.id)")
            }
            let clash = try AccountRow.filter(AccountRow.Columns.username.collating(.nocase) == account.username)
                .filter(AccountRow.Columns.id != account.id).fetchCount(db)
            if clash > 0 { throw MonitoringError.conflict("the username \(account.username) is taken") }
            // The stamp stays the stored one: a password changed since `account` was read
            // keeps ending the sessions before it (``endSessions(of:at:)`` moves it).
            let changedAt = row.credentialsChangedAt
            row.set(account)
            row.credentialsChangedAt = changedAt
            try row.update(db)
        }
    }

    func setPasswordHash(_ hash: String, of id: String, at now: Date) async throws(MonitoringError) {
        try write { db in
            guard var row = try AccountRow.fetchOne(db, key: id) else { throw MonitoringError.notFound("no account \(id)") }
            row.passwordHash = hash
            row.credentialsChangedAt = Self.nextStamp(after: row.credentialsChangedAt, at: now)
            try row.update(db)
        }
    }

    func endSessions(of id: String, at now: Date) async throws(MonitoringError) {
        try write { db in
            guard var row = try AccountRow.fetchOne(db, key: id) else { throw MonitoringError.notFound("no account \(id)") }
            row.credentialsChangedAt = Self.nextStamp(after: row.credentialsChangedAt, at: now)
            try row.update(db)
        }
    }

    /// `now`, or a millisecond after `last` if that is not earlier: always a new stamp.
    private static func nextStamp(after last: Double?, at now: Date) -> Double {
        max((last ?? 0) + 0.001, now.timeIntervalSince1970)
    }

    func delete(_ id: String) async throws(MonitoringError) -> Bool {
        try write { db in try AccountRow.deleteOne(db, key: id) }
    }

    func account(id: String) async throws(MonitoringError) -> (account: UserAccount, passwordHash: String)? {
        try read { db in try AccountRow.fetchOne(db, key: id).map { ($0.account, $0.passwordHash) } }
    }

    func account(username: String) async throws(MonitoringError) -> (account: UserAccount, passwordHash: String)? {
        try read { db in
            try AccountRow.filter(AccountRow.Columns.username.collating(.nocase) == username).fetchOne(db).map { ($0.account, $0.passwordHash) }
        }
    }

    func accounts(role: UserRole?) async throws(MonitoringError) -> [UserAccount] {
        try read { db in
            var request = AccountRow.order(AccountRow.Columns.username.collating(.nocase))
            if let role { request = request.filter(AccountRow.Columns.role == role.rawValue) }
            return try request.fetchAll(db).map(\.account)
        }
    }

    func accountCount() async throws(MonitoringError) -> Int {
        try read { db in try AccountRow.fetchCount(db) }
    }

    // MARK: Device tokens

    func insert(_ token: DeviceToken, secretDigest: String) async throws(MonitoringError) {
        try write { db in
            try db.execute(
                sql: "INSERT INTO deviceToken (id, secretHash, patientID, label, createdAt) VALUES (?, ?, ?, ?, ?)",
                arguments: [token.id, secretDigest, token.patientID.rawValue, token.label, token.createdAt.timeIntervalSince1970])
        }
    }

    func liveToken(secretDigest: String) async throws(MonitoringError) -> DeviceToken? {
        try fetch("SELECT * FROM deviceToken WHERE secretHash = ? AND revokedAt IS NULL", [secretDigest]).first
    }

    func tokens(for patient: PatientID) async throws(MonitoringError) -> [DeviceToken] {
        try fetch("SELECT * FROM deviceToken WHERE patientID = ? ORDER BY createdAt, id", [patient.rawValue])
    }

    func revoke(_ id: String, at now: Date) async throws(MonitoringError) -> Bool {
        try write { db in
            try db.execute(sql: "UPDATE deviceToken SET revokedAt = ? WHERE id = ? AND revokedAt IS NULL", arguments: [now.timeIntervalSince1970, id])
            return db.changesCount > 0
        }
    }

    func deleteTokens(of patient: PatientID) async throws(MonitoringError) -> Int {
        try write { db in
            try db.execute(sql: "DELETE FROM deviceToken WHERE patientID = ?", arguments: [patient.rawValue])
            return db.changesCount
        }
    }

    private func fetch(_ sql: String, _ arguments: StatementArguments) throws(MonitoringError) -> [DeviceToken] {
        try read { db in
            try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
                DeviceToken(
                    id: row["id"], patientID: PatientID(rawValue: row["patientID"]), label: row["label"],
                    createdAt: Date(timeIntervalSince1970: row["createdAt"]),
                    revokedAt: (row["revokedAt"] as Double?).map(Date.init(timeIntervalSince1970:)))
            }
        }
    }

    // MARK: Database access

    private func read<T>(_ body: (Database) throws -> T) throws(MonitoringError) -> T {
        do { return try writer.read(body) } catch { throw MonitoringError(error) }
    }

    private func write<T>(_ body: (Database) throws -> T) throws(MonitoringError) -> T {
        do { return try writer.write(body) } catch { throw MonitoringError(error) }
    }
}
