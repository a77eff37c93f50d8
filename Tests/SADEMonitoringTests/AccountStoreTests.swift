import Foundation
import Testing
import SADEHealth
@testable import SADEMonitoring

@Suite("Accounts and device tokens")
struct AccountStoreTests {
    func makeStore() throws -> (AccountStore, DeviceTokens) {
        let database = try MonitoringDatabase(directory: nil, migrations: [AccountMigrations.register])
        return (AccountStore(database: database, hasher: .fastForTests), DeviceTokens(database: database))
    }

    @Test("passwords are kept as salted bcrypt hashes and checked; usernames are unique regardless of case")
    func passwords() async throws {
        let (store, _) = try makeStore()
        let account = try await store.create(UserAccount(username: "Nurse1", name: "Nora Nurse", role: .nurse, staffID: "nurse1"), password: "sade-demo")
        let hashes = try await store.writer.read { db in try String.fetchAll(db, sql: "SELECT passwordHash FROM account") }
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
        let salts = try await store.writer.read { db in try String.fetchAll(db, sql: "SELECT passwordHash FROM account") }
        #expect(Set(salts).count == 4, "the same password hashes differently for each account")
        try await store.changePassword(of: second.id, to: "another-secret")
        #expect(try await store.authenticate(username: "nurse4", password: "sade-demo") == nil)
        #expect(try await store.authenticate(username: "nurse4", password: "another-secret") != nil)
    }

    @Test("bad usernames, names and passwords are refused naming the field")
    func validation() async throws {
        let (store, _) = try makeStore()
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
        #expect(try store.count() == 0)
    }

    @Test("device tokens: the secret is shown once, stored as a digest, and stops working when revoked")
    func deviceTokens() throws {
        let (_, devices) = try makeStore()
        let (token, secret) = try devices.issue(for: "patient-01", label: "bedside monitor 1")
        #expect(secret.hasPrefix("sdt_") && secret.count == 68)
        let stored = try devices.writer.read { db in try String.fetchAll(db, sql: "SELECT secretHash FROM deviceToken") }
        #expect(stored == [DeviceTokens.digest(secret)] && !stored[0].contains(secret))
        let found = try #require(try devices.token(secret: secret))
        #expect(found.id == token.id && found.account.role == .device && found.account.patientID == "patient-01")
        #expect(try devices.token(secret: secret + "0") == nil)
        #expect(try devices.token(secret: "eyJhbGciOi") == nil)
        #expect(try devices.revoke(token.id))
        #expect(try devices.token(secret: secret) == nil)
        #expect(try devices.revoke(token.id) == false)
        #expect(try devices.tokens(for: "patient-01").first?.revokedAt != nil)
    }
}
