import Foundation
import SADEHealth

/// What an audited request did to the data it touched.
public enum AuditAction: String, Codable, Sendable, CaseIterable {
    /// Looked at data (a `GET`), a live stream opened included.
    case read
    /// Added, changed or removed data (samples posted by a device included, one entry a batch).
    case change
    /// Took data out of the system: a FHIR export, a person's whole record.
    case export
    /// Erased a patient.
    case erase
    /// Logged in.
    case login
    /// Tried to log in and was refused.
    case loginFailed = "login-failed"
    /// Changed who may do what: an account's role, password or sessions, a worker's
    /// sectors or duties, a device token issued or revoked.
    case accessChange = "access-change"
}

/// One thing someone did, as the audit trail keeps it: who, what, to which patient,
/// when, from where and how it ended. It holds no health data (no values, no names):
/// the patient is named by their identifier only.
public struct AuditEvent: Sendable, Hashable, Codable {
    /// When it happened (kept to the millisecond).
    public var at: Date
    /// Who did it: a username (a device token's account for a device), or the username a
    /// failed login tried; `nil` when anonymous.
    public var actor: String?
    /// The actor's role then.
    public var role: UserRole?
    /// What kind of act it was.
    public var action: AuditAction
    /// The patient whose data it touched, if one.
    public var patient: PatientID?
    /// The operation: the method and path, without the query (`GET /api/v1/patients/p1`).
    public var target: String
    /// The HTTP status it was answered with.
    public var status: Int
    /// The client's address.
    public var address: String?
    /// What else matters, without health data (e.g. "role nurse → admin").
    public var detail: String?

    /// An event; `at` is kept to the millisecond.
    public init(
        at: Date, actor: String?, role: UserRole? = nil, action: AuditAction, patient: PatientID? = nil, target: String, status: Int,
        address: String? = nil, detail: String? = nil
    ) {
        self.at = Date(timeIntervalSince1970: Double(AuditChain.milliseconds(at)) / 1000)
        self.actor = actor.map { Self.printable($0, limit: 200) }
        self.role = role
        self.action = action
        self.patient = patient.map { PatientID(rawValue: Self.printable($0.rawValue, limit: 300)) }
        self.target = Self.printable(target, limit: 2_000)
        self.status = status
        self.address = address.map { Self.printable($0, limit: 100) }
        self.detail = detail.map { Self.printable($0, limit: 1_000) }
    }
}

extension AuditEvent {
    /// `text` as an entry keeps it: control characters (a NUL would cut SQLite's copy
    /// short and PostgreSQL's JSON refuses it) written as `\u{…}`, at most `limit`
    /// characters (a password typed as a username is not kept whole).
    static func printable(_ text: String, limit: Int) -> String {
        func isControl(_ scalar: Unicode.Scalar) -> Bool { scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value) }
        if text.utf8.count <= limit, !text.unicodeScalars.contains(where: isControl) { return text }
        var out = ""
        var count = 0
        for scalar in text.unicodeScalars {
            guard count < limit else { return out + "…" }
            if isControl(scalar) {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
            count += 1
        }
        return out
    }
}

/// An event in its place in the chain: its sequence number, the previous entry's hash
/// and its own, a SHA-256 of both and the event.
public struct AuditEntry: Sendable, Hashable {
    /// Its place: 1 for the first entry, each next one more.
    public let sequence: Int64
    /// What was done.
    public let event: AuditEvent
    /// The hash of the entry before (``AuditChain/genesis`` for the first).
    public let previousHash: String
    /// SHA-256 (hex) of the sequence, the previous hash and the event.
    public let hash: String

    /// An entry as a store keeps it, column by column (`at` in milliseconds). A role or
    /// action that is not one we know leaves the entry without its hash, so that the check
    /// finds it changed rather than hashing the value it was read as.
    static func stored(
        sequence: Int64, at: Int64, actor: String?, role: String?, action: String, patient: String?, target: String, status: Int,
        address: String?, detail: String?, previousHash: String, hash: String
    ) -> AuditEntry {
        let knownRole = role.map(UserRole.init(rawValue:))
        let knownAction = AuditAction(rawValue: action)
        let event = AuditEvent(
            at: Date(timeIntervalSince1970: Double(at) / 1000), actor: actor, role: knownRole ?? nil, action: knownAction ?? .read,
            patient: patient.map(PatientID.init(rawValue:)), target: target, status: status, address: address, detail: detail)
        let intact = knownAction != nil && knownRole != .some(nil)
        return AuditEntry(sequence: sequence, event: event, previousHash: previousHash, hash: intact ? hash : "")
    }

    /// An entry as stored.
    public init(sequence: Int64, event: AuditEvent, previousHash: String, hash: String) {
        self.sequence = sequence
        self.event = event
        self.previousHash = previousHash
        self.hash = hash
    }
}

/// The chain's last entry, as recorded apart from the entries (so that entries cut off
/// its end are noticed).
public struct AuditHead: Sendable, Hashable {
    /// The last entry's sequence number (0 when there is none).
    public let sequence: Int64
    /// The last entry's hash (``AuditChain/genesis`` when there is none).
    public let hash: String

    /// The head of an empty trail.
    public static let empty = AuditHead(sequence: 0, hash: AuditChain.genesis)

    /// A head.
    public init(sequence: Int64, hash: String) {
        self.sequence = sequence
        self.hash = hash
    }
}

/// Which entries to list, newest first.
public struct AuditQuery: Sendable, Hashable {
    /// Only this actor's (a username, regardless of ASCII case, as logins take them).
    public var actor: String?
    /// Only those touching this patient.
    public var patient: PatientID?
    /// Only of this kind.
    public var action: AuditAction?
    /// Only at or after this time.
    public var since: Date?
    /// Only before this time.
    public var until: Date?
    /// Only entries before this sequence number (the next page of a listing).
    public var before: Int64?
    /// At most this many.
    public var limit: Int

    /// A query; every filter is optional.
    public init(
        actor: String? = nil, patient: PatientID? = nil, action: AuditAction? = nil, since: Date? = nil, until: Date? = nil,
        before: Int64? = nil, limit: Int = 100
    ) {
        self.actor = actor
        self.patient = patient
        self.action = action
        self.since = since
        self.until = until
        self.before = before
        self.limit = limit
    }
}
