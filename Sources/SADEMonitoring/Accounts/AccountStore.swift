import Foundation
import GRDB
import HummingbirdBcrypt
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

    let writer: any DatabaseWriter
    /// How passwords are hashed.
    public let hasher: PasswordHasher
    /// Compared against when a username is unknown, so that the answer takes as long
    /// (a hash of a fixed text at the hasher's cost, made once per cost).
    private let decoyHash: String

    /// Accounts in `database`.
    public init(database: MonitoringDatabase, hasher: PasswordHasher = .standard) {
        writer = database.writer
        self.hasher = hasher
        decoyHash = Bcrypt.hash("decoy password", cost: hasher.cost)
    }

    // MARK: Creating and changing

    /// Adds an account with `password`.
    ///
    /// - Throws: ``MonitoringError/invalid(field:reason:)`` for a bad username, name or
    ///   password, ``MonitoringError/conflict(_:)`` when the username is taken.
    @discardableResult
    public func create(_ account: UserAccount, password: String) async throws(MonitoringError) -> UserAccount {
        try Self.validate(account)
        try Self.validate(password: password)
        let row = AccountRow(account, passwordHash: await hasher.hash(password))
        try write { db in
            if try AccountRow.filter(AccountRow.Columns.username.collating(.nocase) == account.username).fetchCount(db) > 0 {
                throw MonitoringError.conflict("the username \(account.username) is taken")
            }
            try row.insert(db)
        }
        return account
    }

    /// Replaces an account's details (not its password).
    public func update(_ account: UserAccount) throws(MonitoringError) {
        try Self.validate(account)
        try write { db in
            guard var row = try AccountRow.fetchOne(db, key: account.id) else {
                throw MonitoringError.notFound("no account \(account.id)")
            }
            let clash = try AccountRow.filter(AccountRow.Columns.username.collating(.nocase) == account.username)
                .filter(AccountRow.Columns.id != account.id).fetchCount(db)
            if clash > 0 { throw MonitoringError.conflict("the username \(account.username) is taken") }
            row.set(account)
            try row.update(db)
        }
    }

    /// Sets a new password.
    public func changePassword(of id: String, to password: String) async throws(MonitoringError) {
        try Self.validate(password: password)
        let hash = await hasher.hash(password)
        try write { db in
            guard var row = try AccountRow.fetchOne(db, key: id) else { throw MonitoringError.notFound("no account \(id)") }
            row.passwordHash = hash
            try row.update(db)
        }
    }

    /// Removes an account; returns whether it existed.
    @discardableResult
    public func delete(_ id: String) throws(MonitoringError) -> Bool {
        try write { db in try AccountRow.deleteOne(db, key: id) }
    }

    // MARK: Reading

    /// The account whose username and password match, or `nil`.
    public func authenticate(username: String, password: String) async throws(MonitoringError) -> UserAccount? {
        let row = try read { db in try AccountRow.filter(AccountRow.Columns.username.collating(.nocase) == username).fetchOne(db) }
        // bcrypt stops at a NUL: "secret\0anything" would match "secret".
        let usable = !password.unicodeScalars.contains { CharacterSet.controlCharacters.contains($0) }
        guard let row, usable else {
            _ = await hasher.verify(password, against: decoyHash)
            return nil
        }
        return await hasher.verify(password, against: row.passwordHash) ? row.account : nil
    }

    /// The account with this identifier.
    public func account(id: String) throws(MonitoringError) -> UserAccount? {
        try read { db in try AccountRow.fetchOne(db, key: id)?.account }
    }

    /// The account with this username, regardless of case.
    public func account(username: String) throws(MonitoringError) -> UserAccount? {
        try read { db in try AccountRow.filter(AccountRow.Columns.username.collating(.nocase) == username).fetchOne(db)?.account }
    }

    /// Every account (of `role`, if given), by username.
    public func accounts(role: UserRole? = nil) throws(MonitoringError) -> [UserAccount] {
        try read { db in
            var request = AccountRow.order(AccountRow.Columns.username.collating(.nocase))
            if let role { request = request.filter(AccountRow.Columns.role == role.rawValue) }
            return try request.fetchAll(db).map(\.account)
        }
    }

    /// How many accounts there are.
    public func count() throws(MonitoringError) -> Int {
        try read { db in try AccountRow.fetchCount(db) }
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

    // MARK: Database access

    func read<T>(_ body: (Database) throws -> T) throws(MonitoringError) -> T {
        do { return try writer.read(body) } catch { throw MonitoringError(error) }
    }

    func write<T>(_ body: (Database) throws -> T) throws(MonitoringError) -> T {
        do { return try writer.write(body) } catch { throw MonitoringError(error) }
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
