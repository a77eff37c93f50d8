import Foundation
import SADEHealth

/// Accounts whose identifying data — the person's name, e-mail address and location —
/// is sealed (``DataKeyRing``) before the records underneath see it, travelling in the
/// name; usernames stay as they are (a login finds its account by them). Device tokens
/// pass through: they hold no identifying data.
public struct SealingAccountRecords: AccountRecords, DeviceTokenRecords {
    /// The records that keep the sealed accounts.
    public let inner: any AccountRecords & DeviceTokenRecords
    /// The keys.
    public let keys: DataKeyRing

    /// Seals what goes into `inner` with `keys`.
    public init(_ inner: any AccountRecords & DeviceTokenRecords, keys: DataKeyRing) {
        self.inner = inner
        self.keys = keys
    }

    private struct Secrets: Codable {
        var name: String
        var email: String?
        var location: String?
    }

    /// `account` as stored: its identifying fields sealed into its name.
    public func sealed(_ account: UserAccount) throws(MonitoringError) -> UserAccount {
        var stored = account
        do {
            stored.name = try keys.sealJSON(Secrets(name: account.name, email: account.email, location: account.location), context: "account:\(account.id)")
        } catch {
            throw .storage("cannot seal account \(account.id): \(error)")
        }
        (stored.email, stored.location) = (nil, nil)
        return stored
    }

    /// `stored` with its sealed fields opened (an account written before a key was set is as it was).
    public func opened(_ stored: UserAccount) throws(MonitoringError) -> UserAccount {
        guard DataKeyRing.isSealed(stored.name) else { return stored }
        let secrets: Secrets
        do {
            secrets = try keys.openJSON(Secrets.self, stored.name, context: "account:\(stored.id)")
        } catch {
            throw .storage("account \(stored.id): \(error)")
        }
        var account = stored
        (account.name, account.email, account.location) = (secrets.name, secrets.email, secrets.location)
        return account
    }

    public func insert(_ account: UserAccount, passwordHash: String) async throws(MonitoringError) {
        try await inner.insert(try sealed(account), passwordHash: passwordHash)
    }

    public func update(_ account: UserAccount) async throws(MonitoringError) { try await inner.update(try sealed(account)) }

    public func setPasswordHash(_ hash: String, of id: String, at now: Date) async throws(MonitoringError) {
        try await inner.setPasswordHash(hash, of: id, at: now)
    }

    public func endSessions(of id: String, at now: Date) async throws(MonitoringError) { try await inner.endSessions(of: id, at: now) }
    public func delete(_ id: String) async throws(MonitoringError) -> Bool { try await inner.delete(id) }

    public func account(id: String) async throws(MonitoringError) -> (account: UserAccount, passwordHash: String)? {
        guard let (account, hash) = try await inner.account(id: id) else { return nil }
        return (try opened(account), hash)
    }

    public func account(username: String) async throws(MonitoringError) -> (account: UserAccount, passwordHash: String)? {
        guard let (account, hash) = try await inner.account(username: username) else { return nil }
        return (try opened(account), hash)
    }

    public func accounts(role: UserRole?) async throws(MonitoringError) -> [UserAccount] {
        var accounts: [UserAccount] = []
        for stored in try await inner.accounts(role: role) { accounts.append(try opened(stored)) }
        return accounts
    }

    public func accountCount() async throws(MonitoringError) -> Int { try await inner.accountCount() }

    public func insert(_ token: DeviceToken, secretDigest: String) async throws(MonitoringError) {
        try await inner.insert(token, secretDigest: secretDigest)
    }

    public func liveToken(secretDigest: String) async throws(MonitoringError) -> DeviceToken? { try await inner.liveToken(secretDigest: secretDigest) }
    public func tokens(for patient: PatientID) async throws(MonitoringError) -> [DeviceToken] { try await inner.tokens(for: patient) }
    public func revoke(_ id: String, at now: Date) async throws(MonitoringError) -> Bool { try await inner.revoke(id, at: now) }
    public func deleteTokens(of patient: PatientID) async throws(MonitoringError) -> Int { try await inner.deleteTokens(of: patient) }
}
