import Foundation
import SADEHealth

/// Accounts and their passwords, in the monitoring database.
///
/// Passwords are stored only as bcrypt hashes (``PasswordHasher``); usernames are
/// unique regardless of case. Every method is safe to call from any task.
public struct AccountStore: Sendable {
    /// The shortest password accepted.
    public static let minimumPasswordLength = 8
    /// The longest password accepted (bcrypt reads 72 bytes; longer ones are refused
    /// rather than silently cut).
    public static let maximumPasswordBytes = 72

    /// Where the accounts are kept.
    let records: any AccountRecords
    /// How passwords are hashed.
    public let hasher: PasswordHasher

    /// Accounts in the monitoring database.
    public init(database: MonitoringDatabase, hasher: PasswordHasher = .standard) {
        self.init(records: SQLiteAccountRecords(writer: database.writer), hasher: hasher)
    }

    /// Accounts in `records` (PostgreSQL when several nodes share them).
    public init(records: any AccountRecords, hasher: PasswordHasher = .standard) {
        self.records = records
        self.hasher = hasher
    }

    // MARK: Creating and changing

    /// Adds an account with `password`.
    ///
    /// - Throws: ``MonitoringError/invalid(field:reason:)`` for a bad username, name or
    ///   password, ``MonitoringError/conflict(_:)`` when the username is taken.
    /// - Parameter hasher: another hasher than the store's, for a password that a slow
    ///   hash cannot protect (the demo's, printed in the README).
    @discardableResult
    public func create(_ account: UserAccount, password: String, hasher: PasswordHasher? = nil) async throws(MonitoringError) -> UserAccount {
        try Self.validate(account)
        try Self.validate(password: password)
        try await records.insert(account, passwordHash: await (hasher ?? self.hasher).hash(password))
        return account
    }

    /// Replaces an account's details (not its password).
    public func update(_ account: UserAccount) async throws(MonitoringError) {
        try Self.validate(account)
        try await records.update(account)
    }

    /// Sets a new password at `now`; the login tokens issued before stop working.
    public func changePassword(of id: String, to password: String, at now: Date = Date()) async throws(MonitoringError) {
        try Self.validate(password: password)
        try await records.setPasswordHash(await hasher.hash(password), of: id, at: now)
    }

    /// Ends the account's sessions at `now` (a new role): the login tokens issued before
    /// stop working.
    public func endSessions(of id: String, at now: Date = Date()) async throws(MonitoringError) {
        try await records.endSessions(of: id, at: now)
    }

    /// Removes an account; returns whether it existed.
    @discardableResult
    public func delete(_ id: String) async throws(MonitoringError) -> Bool {
        try await records.delete(id)
    }

    // MARK: Reading

    /// The account whose username and password match, or `nil`.
    public func authenticate(username: String, password: String) async throws(MonitoringError) -> UserAccount? {
        // No username holds a control character (PostgreSQL refuses a NUL in a query outright).
        let possible = !username.unicodeScalars.contains { CharacterSet.controlCharacters.contains($0) }
        let stored = possible ? try await records.account(username: username) : nil
        // bcrypt stops at a NUL: "secret\0anything" would match "secret".
        let usable = !password.unicodeScalars.contains { CharacterSet.controlCharacters.contains($0) }
        guard let stored, usable else {
            // As long as checking a password: hashing one at the same cost (a fixed decoy
            // hash to check against would cost every server one hash at start, ~1 s in a
            // debug build).
            _ = await hasher.hash(password)
            return nil
        }
        return await hasher.verify(password, against: stored.passwordHash) ? stored.account : nil
    }

    /// The account with this identifier.
    public func account(id: String) async throws(MonitoringError) -> UserAccount? {
        try await records.account(id: id)?.account
    }

    /// The account with this username, regardless of case.
    public func account(username: String) async throws(MonitoringError) -> UserAccount? {
        try await records.account(username: username)?.account
    }

    /// Every account (of `role`, if given), by username.
    public func accounts(role: UserRole? = nil) async throws(MonitoringError) -> [UserAccount] {
        try await records.accounts(role: role)
    }

    /// The usernames of the accounts a notice's user recipient stands for: the account
    /// with that username, and the health-care workers' accounts with that staff id.
    public func usernames(of recipient: String) async throws(MonitoringError) -> [String] {
        var usernames: [String] = []
        if let account = try await account(username: recipient) { usernames.append(account.username) }
        for account in try await accounts() where account.staffID == recipient && account.username != recipient {
            usernames.append(account.username)
        }
        return usernames
    }

    /// How many accounts there are.
    public func count() async throws(MonitoringError) -> Int {
        try await records.accountCount()
    }

    // MARK: Validation

    static func validate(_ account: UserAccount) throws(MonitoringError) {
        let username = account.username
        guard (1...64).contains(username.count) else {
            throw .invalid(field: "username", reason: "must be 1 to 64 characters")
        }
        guard username.unicodeScalars.allSatisfy({ CharacterSet.usernameCharacters.contains($0) }) else {
            throw .invalid(field: "username", reason: "may hold only letters, digits and . _ @ -")
        }
        guard !account.name.trimmingCharacters(in: .whitespaces).isEmpty, account.name.count <= 200 else {
            throw .invalid(field: "name", reason: "must be 1 to 200 characters")
        }
        if let email = account.email, !email.isEmpty, !email.contains("@") || email.count > 254 {
            throw .invalid(field: "email", reason: "is not an e-mail address")
        }
    }

    static func validate(password: String) throws(MonitoringError) {
        guard password.count >= minimumPasswordLength else {
            throw .invalid(field: "password", reason: "must be at least \(minimumPasswordLength) characters")
        }
        guard password.utf8.count <= maximumPasswordBytes else {
            throw .invalid(field: "password", reason: "must be at most \(maximumPasswordBytes) bytes")
        }
        // bcrypt reads a C string: whatever follows a NUL would be ignored.
        guard !password.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) else {
            throw .invalid(field: "password", reason: "may not contain control characters")
        }
    }
}

extension MonitoringError {
    /// Keeps a thrown monitoring error; wraps anything else as a storage failure.
    init(_ error: any Error) {
        self = (error as? MonitoringError) ?? .storage("\(error)")
    }
}

extension CharacterSet {
    static let usernameCharacters = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "._@-"))
}
