import Crypto
import Foundation
import GRDB
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

    let writer: any DatabaseWriter

    /// Device tokens in `database`.
    public init(database: MonitoringDatabase) { writer = database.writer }

    /// A new token for `patient`; returns it with its secret.
    public func issue(for patient: PatientID, label: String, at now: Date = Date()) throws(MonitoringError) -> (token: DeviceToken, secret: String) {
        let label = label.trimmingCharacters(in: .whitespaces)
        guard (1...200).contains(label.count) else { throw .invalid(field: "label", reason: "must be 1 to 200 characters") }
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let secret = Self.secretPrefix + bytes.map { String(format: "%02x", $0) }.joined()
        let token = DeviceToken(id: UUID().uuidString, patientID: patient, label: label, createdAt: now)
        do {
            try writer.write { db in
                try db.execute(
                    sql: "INSERT INTO deviceToken (id, secretHash, patientID, label, createdAt) VALUES (?, ?, ?, ?, ?)",
                    arguments: [token.id, Self.digest(secret), patient.rawValue, label, now.timeIntervalSince1970])
            }
        } catch { throw MonitoringError(error) }
        return (token, secret)
    }

    /// The live token whose secret this is, or `nil`.
    public func token(secret: String) throws(MonitoringError) -> DeviceToken? {
        guard secret.hasPrefix(Self.secretPrefix) else { return nil }
        return try fetch("SELECT * FROM deviceToken WHERE secretHash = ? AND revokedAt IS NULL", [Self.digest(secret)]).first
    }

    /// The tokens issued for `patient`, revoked ones included, oldest first.
    public func tokens(for patient: PatientID) throws(MonitoringError) -> [DeviceToken] {
        try fetch("SELECT * FROM deviceToken WHERE patientID = ? ORDER BY createdAt, id", [patient.rawValue])
    }

    /// Revokes a token; returns whether a live one was revoked.
    @discardableResult
    public func revoke(_ id: String, at now: Date = Date()) throws(MonitoringError) -> Bool {
        do {
            return try writer.write { db in
                try db.execute(sql: "UPDATE deviceToken SET revokedAt = ? WHERE id = ? AND revokedAt IS NULL", arguments: [now.timeIntervalSince1970, id])
                return db.changesCount > 0
            }
        } catch { throw MonitoringError(error) }
    }

    private func fetch(_ sql: String, _ arguments: StatementArguments) throws(MonitoringError) -> [DeviceToken] {
        do {
            return try writer.read { db in
                try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
                    DeviceToken(
                        id: row["id"], patientID: PatientID(rawValue: row["patientID"]), label: row["label"],
                        createdAt: Date(timeIntervalSince1970: row["createdAt"]),
                        revokedAt: (row["revokedAt"] as Double?).map(Date.init(timeIntervalSince1970:)))
                }
            }
        } catch { throw MonitoringError(error) }
    }

    static func digest(_ secret: String) -> String {
        SHA256.hash(data: Data(secret.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
