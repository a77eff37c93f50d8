import Foundation
import SADEHealth

/// Where accounts and their password hashes are kept: the monitoring database's
/// SQLite file on one machine, PostgreSQL when several nodes share them. The rules
/// (validation, hashing, timing-safe login) stay in ``AccountStore``.
public protocol AccountRecords: Sendable {
    /// Adds an account.
    ///
    /// - Throws: ``MonitoringError/conflict(_:)`` when its username is taken, in any case.
    func insert(_ account: UserAccount, passwordHash: String) async throws(MonitoringError)
    /// Replaces an account's details (not its password, nor its
    /// ``UserAccount/credentialsChangedAt``: an account read before a password change and
    /// saved after it does not bring back the tokens the change ended).
    ///
    /// - Throws: ``MonitoringError/notFound(_:)``, or ``MonitoringError/conflict(_:)``
    ///   when another account has its username.
    func update(_ account: UserAccount) async throws(MonitoringError)
    /// Sets an account's password hash and ends its sessions as ``endSessions(of:at:)``.
    ///
    /// - Throws: ``MonitoringError/notFound(_:)``.
    func setPasswordHash(_ hash: String, of id: String, at now: Date) async throws(MonitoringError)
    /// Ends the account's sessions: its ``UserAccount/credentialsChangedAt`` becomes `now`,
    /// or a millisecond after the last change if that is not earlier (another node's clock,
    /// the same instant) — always a new value, so no token issued before stays good.
    ///
    /// - Throws: ``MonitoringError/notFound(_:)``.
    func endSessions(of id: String, at now: Date) async throws(MonitoringError)
    /// Removes an account; returns whether it existed.
    func delete(_ id: String) async throws(MonitoringError) -> Bool
    /// The account with this identifier, with its password hash.
    func account(id: String) async throws(MonitoringError) -> (account: UserAccount, passwordHash: String)?
    /// The account with this username, regardless of case, with its password hash.
    func account(username: String) async throws(MonitoringError) -> (account: UserAccount, passwordHash: String)?
    /// Every account (of `role`, if given), by username regardless of case.
    func accounts(role: UserRole?) async throws(MonitoringError) -> [UserAccount]
    /// How many accounts there are.
    func accountCount() async throws(MonitoringError) -> Int
}

/// Where device tokens are kept (only their secrets' digests).
public protocol DeviceTokenRecords: Sendable {
    /// Adds a token with the digest of its secret.
    func insert(_ token: DeviceToken, secretDigest: String) async throws(MonitoringError)
    /// The live (unrevoked) token with this digest.
    func liveToken(secretDigest: String) async throws(MonitoringError) -> DeviceToken?
    /// The tokens of `patient`, revoked ones included, oldest first.
    func tokens(for patient: PatientID) async throws(MonitoringError) -> [DeviceToken]
    /// Marks a live token revoked at `now`; returns whether there was one.
    func revoke(_ id: String, at now: Date) async throws(MonitoringError) -> Bool
    /// Removes every token of `patient`, revoked ones included (their erasure); returns how many.
    func deleteTokens(of patient: PatientID) async throws(MonitoringError) -> Int
}
