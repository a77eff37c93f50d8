import Crypto
import Foundation
import SADEHealth

/// A monitoring device's credential: it may write samples of one patient and nothing else.
public struct DeviceToken: Hashable, Sendable, Codable, Identifiable {
    /// Unique (a UUID string).
    public var id: String
    /// The patient whose samples the device writes.
    public var patientID: PatientID
    /// What the device is, e.g. `bedside monitor 3`.
    public var label: String
    /// When it was issued.
    public var createdAt: Date
    /// When it was revoked, if it was.
    public var revokedAt: Date?

    /// The account a request carrying this token acts as.
    public var account: UserAccount {
        UserAccount(id: id, username: "device-\(id.prefix(8).lowercased())", name: label, role: .device, patientID: patientID, createdAt: createdAt)
    }
}

/// Issues, checks and revokes device tokens. Only a SHA-256 digest of each secret is
/// stored; the secret is shown once, when issued.
public struct DeviceTokens: Sendable {
    /// Every secret starts with this, so that a bearer token is told apart from a JWT.
    public static let secretPrefix = "sdt_"

    /// Where the tokens are kept.
    let records: any DeviceTokenRecords

    /// Device tokens in the monitoring database.
    public init(database: MonitoringDatabase) { records = SQLiteAccountRecords(writer: database.writer) }

    /// Device tokens in `records` (PostgreSQL when several nodes share them).
    public init(records: any DeviceTokenRecords) { self.records = records }

    /// A new token for `patient`; returns it with its secret.
    public func issue(for patient: PatientID, label: String, at now: Date = Date()) async throws(MonitoringError) -> (token: DeviceToken, secret: String) {
        let label = label.trimmingCharacters(in: .whitespaces)
        guard (1...200).contains(label.count) else { throw .invalid(field: "label", reason: "must be 1 to 200 characters") }
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let secret = Self.secretPrefix + bytes.map { String(format: "%02x", $0) }.joined()
        let token = DeviceToken(id: UUID().uuidString, patientID: patient, label: label, createdAt: now)
        try await records.insert(token, secretDigest: Self.digest(secret))
        return (token, secret)
    }

    /// The live token whose secret this is, or `nil`.
    public func token(secret: String) async throws(MonitoringError) -> DeviceToken? {
        guard secret.hasPrefix(Self.secretPrefix) else { return nil }
        return try await records.liveToken(secretDigest: Self.digest(secret))
    }

    /// Removes every token of `patient`, revoked ones included; returns how many.
    @discardableResult
    public func deleteAll(for patient: PatientID) async throws(MonitoringError) -> Int {
        try await records.deleteTokens(of: patient)
    }

    /// The tokens issued for `patient`, revoked ones included, oldest first.
    public func tokens(for patient: PatientID) async throws(MonitoringError) -> [DeviceToken] {
        try await records.tokens(for: patient)
    }

    /// Revokes a token; returns whether a live one was revoked.
    @discardableResult
    public func revoke(_ id: String, at now: Date = Date()) async throws(MonitoringError) -> Bool {
        try await records.revoke(id, at: now)
    }

    static func digest(_ secret: String) -> String {
        SHA256.hash(data: Data(secret.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
