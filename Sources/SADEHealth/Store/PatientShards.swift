import Crypto
import Foundation

/// Some of the patients, for sharing their evaluation among nodes: every patient
/// belongs to one of ``count`` shards by a hash of their identifier, and a value names
/// some shards. A node evaluates the patients of the shards it holds leases on.
///
/// The hash is the identifier's MD5 read as PostgreSQL reads it (`md5(patient)`, its
/// first eight hexadecimal digits as a 32-bit integer, sign bit cleared), so a store
/// can pick a shard's samples in SQL. The number of shards is fixed: anchors are kept
/// per shard, and a different count would give the same shard other patients.
public struct PatientShards: Hashable, Sendable, Codable, CustomStringConvertible {
    /// How many shards the patients are divided into.
    public static let count = 16
    /// Every shard: every patient.
    public static let all = PatientShards(0..<count)
    /// No shard (not `none`, which an optional's `nil` would shadow).
    public static let empty = PatientShards([])

    /// The shards, in `0..<count`, ascending.
    public let members: [Int]

    /// The shards in `members` (those outside `0..<count` are left out).
    public init(_ members: some Sequence<Int>) {
        self.members = Set(members).filter { (0..<Self.count).contains($0) }.sorted()
    }

    /// Whether every patient is in these shards.
    public var isAll: Bool { members.count == Self.count }
    /// Whether no patient is.
    public var isEmpty: Bool { members.isEmpty }

    /// The shard of `patient`.
    public static func shard(of patient: PatientID) -> Int {
        let digest = Array(Insecure.MD5.hash(data: Data(patient.rawValue.utf8)))
        let leading = digest.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return Int(leading & 0x7fff_ffff) % count
    }

    /// Whether `patient` is in one of these shards.
    public func contains(_ patient: PatientID) -> Bool {
        isAll || members.contains(Self.shard(of: patient))
    }

    /// These shards and `other`'s.
    public func union(_ other: PatientShards) -> PatientShards { PatientShards(members + other.members) }
    /// These shards but not `other`'s.
    public func subtracting(_ other: PatientShards) -> PatientShards { PatientShards(Set(members).subtracting(other.members)) }

    /// Decodes the shards' numbers.
    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode([Int].self))
    }

    /// Encodes the shards' numbers.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(members)
    }

    /// `3,4,5` or `all`.
    public var description: String { isAll ? "all" : members.map(String.init).joined(separator: ",") }
}
