import Foundation
import GRDB
import SADETestTiming
import Testing
import SADEHealth
@testable import SADEMonitoring
import PostgresNIO
import SADEPostgres
import SADETestSupport

/// Where the accounts of a test live: the monitoring database's SQLite, or PostgreSQL.
enum AccountBackend: String, CaseIterable, CustomTestStringConvertible {
    case sqlite, postgres
    var testDescription: String { rawValue }
}

/// One conformance suite for both backends.
@Suite("Accounts and device tokens (SQLite and PostgreSQL)", .timeLimit(.minutes(5)), .timed)
struct AccountStoreTests {
    /// A fresh store of `backend`, with a way to read one column of every row of a table
    /// as the database holds it (to see what is stored in place of secrets).
    func makeStore(_ backend: AccountBackend) async throws -> (AccountStore, DeviceTokens, rawColumn: @Sendable (String, String) async throws -> [String]) {
        switch backend {
        case .sqlite:
            let database = try MonitoringDatabase(directory: nil, migrations: [AccountMigrations.register])
            let writer = database.writer
            return (
                AccountStore(database: database, hasher: .fastForTests), DeviceTokens(database: database),
                { table, column in try await writer.read { db in try String.fetchAll(db, sql: "SELECT \(column) FROM \(table)") } }
            )
        case .postgres:
            let pool = try await PostgresPool.connect(PostgresLocation(url: PostgresTestServer.makeDatabase()), maximumConnections: 4, timeout: .seconds(30))
            let records = try await PostgresAccountRecords(pool)
            let names = ["passwordHash": "password_hash", "secretHash": "secret_hash", "account": "account", "deviceToken": "device_token"]
            return (
                AccountStore(records: records, hasher: .fastForTests), DeviceTokens(records: records),
                { table, column in
                    try await pool.query(PostgresQuery(unsafeSQL: "SELECT \(names[column]!) FROM \(names[table]!)")).map { try $0.decode(String.self) }
                }
            )
        }
    }

    @Test("passwords are kept as salted bcrypt hashes and checked; usernames are unique regardless of case", arguments: AccountBackend.allCases)
    func passwords(backend: AccountBackend) async throws {
        let (store, _, raw) = try await makeStore(backend)
        let account = try await store.create(UserAccount(username: "Nurse1", name: "Nora Nurse", role: .nurse, staffID: "nurse1"), password: "sade-demo")
        let hashes = try await raw("account", "passwordHash")
        #expect(hashes.count == 1 && hashes[0].hasPrefix("$2") && !hashes[0].contains("sade-demo"))
        #expect(try await store.authenticate(username: "nurse1", password: "sade-demo")?.id == account.id)
        #expect(try await store.authenticate(username: "nurse1", password: "sade-demo!") == nil)
        #expect(try await store.authenticate(username: "nobody", password: "sade-demo") == nil)
        await #expect(throws: MonitoringError.conflict("the username NURSE1 is taken")) {
            try await store.create(UserAccount(username: "NURSE1", name: "Other", role: .nurse), password: "sade-demo")
        }
        let other = try await store.create(UserAccount(username: "nurse2", name: "N Two", role: .nurse), password: "sade-demo")
        try await store.create(UserAccount(username: "nurse3", name: "N Three", role: .nurse), password: "sade-demo")
        let second = try await store.create(UserAccount(username: "nurse4", name: "N Four", role: .nurse), password: "sade-demo")
        #expect(try await store.authenticate(username: "nurse2", password: "sade-demo")?.id == other.id)
        let salts = try await raw("account", "passwordHash")
        #expect(Set(salts).count == 4, "the same password hashes differently for each account")
        #expect(second.credentialsChangedAt == nil)
        let changedAt = Date(timeIntervalSince1970: 1_800_000_123.25)
        try await store.changePassword(of: second.id, to: "another-secret", at: changedAt)
        #expect(try await store.authenticate(username: "nurse4", password: "sade-demo") == nil)
        #expect(try await store.authenticate(username: "nurse4", password: "another-secret")?.credentialsChangedAt == changedAt)
        var renamed = try #require(try await store.account(id: second.id))
        renamed.name = "N Four Renamed"
        try await store.update(renamed)
        #expect(try await store.account(id: second.id)?.credentialsChangedAt == changedAt, "kept by an update")
    }

    @Test("bad usernames, names and passwords are refused naming the field", arguments: AccountBackend.allCases)
    func validation(backend: AccountBackend) async throws {
        let (store, _, _) = try await makeStore(backend)
        await #expect(throws: MonitoringError.invalid(field: "username", reason: "may hold only letters, digits and . _ @ -")) {
            try await store.create(UserAccount(username: "a b", name: "A", role: .nurse), password: "sade-demo")
        }
        await #expect(throws: MonitoringError.invalid(field: "password", reason: "must be at least 8 characters")) {
            try await store.create(UserAccount(username: "ab", name: "A", role: .nurse), password: "short")
        }
        await #expect(throws: MonitoringError.invalid(field: "password", reason: "must be at most 72 bytes")) {
            try await store.create(UserAccount(username: "ab", name: "A", role: .nurse), password: String(repeating: "x", count: 73))
        }
        await #expect(throws: MonitoringError.invalid(field: "name", reason: "must be 1 to 200 characters")) {
            try await store.create(UserAccount(username: "ab", name: "  ", role: .nurse), password: "sade-demo")
        }
        await #expect(throws: MonitoringError.invalid(field: "password", reason: "may not contain control characters")) {
            try await store.create(UserAccount(username: "ab", name: "A", role: .nurse), password: "\u{0}abcdefgh")
        }
        #expect(try await store.count() == 0)
    }

    @Test("device tokens: the secret is shown once, stored as a digest, and stops working when revoked", arguments: AccountBackend.allCases)
    func deviceTokens(backend: AccountBackend) async throws {
        let (_, devices, raw) = try await makeStore(backend)
        let (token, secret) = try await devices.issue(for: "patient-01", label: "bedside monitor 1")
        #expect(secret.hasPrefix("sdt_") && secret.count == 68)
        let stored = try await raw("deviceToken", "secretHash")
        #expect(stored == [DeviceTokens.digest(secret)] && !stored[0].contains(secret))
        let found = try #require(try await devices.token(secret: secret))
        #expect(found.id == token.id && found.account.role == .device && found.account.patientID == "patient-01")
        #expect(try await devices.token(secret: secret + "0") == nil)
        #expect(try await devices.token(secret: "eyJhbGciOi") == nil)
        #expect(try await devices.revoke(token.id))
        #expect(try await devices.token(secret: secret) == nil)
        #expect(try await devices.revoke(token.id) == false)
        #expect(try await devices.tokens(for: "patient-01").first?.revokedAt != nil)
    }

    @Test("""
        an account read before its password changed and saved after keeps the change's time: the sessions it ended stay \
        ended; ending sessions always makes a new stamp
        """, arguments: AccountBackend.allCases)
    func staleDetailsKeepTheCredentialsChange(backend: AccountBackend) async throws {
        let (store, _, _) = try await makeStore(backend)
        let read = try await store.create(UserAccount(username: "ivy", name: "Ivy", role: .nurse, staffID: "n-1"), password: "sade-demo")
        let changedAt = Date(timeIntervalSince1970: 1_790_000_100)
        try await store.changePassword(of: read.id, to: "another-password", at: changedAt)
        var renamed = read  // from before the change: no credentialsChangedAt
        renamed.name = "Ivy R."
        try await store.update(renamed)
        let saved = try #require(try await store.account(id: read.id))
        #expect(saved.name == "Ivy R." && saved.credentialsChangedAt == changedAt)
        renamed.credentialsChangedAt = changedAt.addingTimeInterval(60)  // details never move the stamp
        try await store.update(renamed)
        #expect(try await store.account(id: read.id)?.credentialsChangedAt == changedAt)

        // Ending the sessions always gives a new stamp: `now`, or just after the last one
        // when another node's clock (or the same instant) is not later.
        try await store.endSessions(of: read.id, at: changedAt.addingTimeInterval(-5))
        let bumped = try #require(try await store.account(id: read.id)?.credentialsChangedAt)
        #expect(bumped > changedAt && bumped.timeIntervalSince(changedAt) < 0.01, "\(bumped.timeIntervalSince(changedAt))")
        try await store.changePassword(of: read.id, to: "third-password", at: bumped)
        #expect(try await store.account(id: read.id)?.credentialsChangedAt ?? .distantPast > bumped, "the same instant: still a new stamp")
        let later = changedAt.addingTimeInterval(60)
        try await store.endSessions(of: read.id, at: later)
        #expect(try await store.account(id: read.id)?.credentialsChangedAt == later)
        await #expect(throws: MonitoringError.notFound("no account no-such-id")) { try await store.endSessions(of: "no-such-id") }
    }

    @Test("details change and keep their account; a taken username, an unknown account, deletion; the list by username", arguments: AccountBackend.allCases)
    func updatesAndListing(backend: AccountBackend) async throws {
        let (store, _, _) = try await makeStore(backend)
        // A creation time in whole seconds: the SQLite rows keep seconds since 1970, and
        // not every Date survives the trip from its own epoch (2001) and back to the last bit.
        let created = Date(timeIntervalSince1970: 1_790_000_000)
        var zoe = try await store.create(
            UserAccount(username: "zoe", name: "Zoe", role: .nurse, staffID: "n-9", createdAt: created), password: "sade-demo")
        let adam = try await store.create(UserAccount(username: "Adam", name: "Adam", role: .doctor, email: "adam@example.org"), password: "sade-demo")
        try await store.create(UserAccount(username: "mia", name: "Mia", role: .patient, patientID: "p-3"), password: "sade-demo")
        #expect(try await store.accounts().map(\.username) == ["Adam", "mia", "zoe"])
        #expect(try await store.accounts(role: .nurse).map(\.id) == [zoe.id])
        zoe.name = "Zoe Z."
        zoe.location = "ward 2"
        try await store.update(zoe)
        #expect(try await store.account(id: zoe.id) == zoe)
        #expect(try await store.account(username: "ZOE")?.id == zoe.id)
        var clash = zoe
        clash.username = "ADAM"
        await #expect(throws: MonitoringError.conflict("the username ADAM is taken")) { try await store.update(clash) }
        var ghost = zoe
        ghost.id = "no-such-id"
        await #expect(throws: MonitoringError.notFound("no account no-such-id")) { try await store.update(ghost) }
        await #expect(throws: MonitoringError.notFound("no account no-such-id")) { try await store.changePassword(of: "no-such-id", to: "sade-demo") }
        // Case is folded for ASCII letters only, on both backends (SQLite's NOCASE).
        try await store.create(UserAccount(username: "Émile", name: "Émile", role: .nurse), password: "sade-demo")
        try await store.create(UserAccount(username: "émile", name: "émile", role: .nurse), password: "sade-demo")
        #expect(try await store.account(username: "ÉMILE")?.username == "Émile")
        #expect(try await store.delete(try #require(try await store.account(username: "émile")).id))
        try await store.delete(try #require(try await store.account(username: "Émile")).id)
        #expect(try await store.delete(adam.id))
        #expect(try await store.delete(adam.id) == false)
        #expect(try await store.count() == 2)
        #expect(try await store.account(id: adam.id) == nil)
    }
}
