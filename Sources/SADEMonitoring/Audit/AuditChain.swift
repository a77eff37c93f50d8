import Crypto
import Foundation

/// How audit entries are chained: each entry's hash covers its sequence number, the
/// previous entry's hash and its event, so that changing, removing or reordering an
/// entry breaks every link after it; the trail's head, kept apart, tells entries cut
/// off the end.
public enum AuditChain {
    /// The "previous hash" of the first entry.
    public static let genesis = String(repeating: "0", count: 64)

    /// `date` in whole milliseconds since 1970, as entries keep it.
    public static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    /// SHA-256 (hex) of an entry's fields, each written with its length so that no two
    /// different entries are written alike.
    public static func hash(sequence: Int64, previousHash: String, event: AuditEvent) -> String {
        var text = ""
        for field in [
            String(sequence), previousHash, String(milliseconds(event.at)), event.actor, event.role?.rawValue, event.action.rawValue,
            event.patient?.rawValue, event.target, String(event.status), event.address, event.detail,
        ] {
            if let field { text += "\(field.utf8.count):\(field)|" } else { text += "-|" }
        }
        return SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// `events` chained after `head`, in order.
    public static func seal(_ events: [AuditEvent], after head: AuditHead) -> [AuditEntry] {
        var previous = head.hash
        return events.enumerated().map { offset, event in
            let sequence = head.sequence + 1 + Int64(offset)
            let hash = hash(sequence: sequence, previousHash: previous, event: event)
            defer { previous = hash }
            return AuditEntry(sequence: sequence, event: event, previousHash: previous, hash: hash)
        }
    }

    /// Where a chain is broken.
    public struct Break: Sendable, Hashable, CustomStringConvertible {
        /// The first entry that does not fit (or, for a missing tail, the head's sequence).
        public let sequence: Int64
        /// Why, for people.
        public let reason: String

        public var description: String { "entry \(sequence): \(reason)" }
    }

    /// What a check of a whole trail found.
    public struct Verification: Sendable, Hashable {
        /// How many entries were read.
        public let entries: Int
        /// The head the entries were checked up to (read first).
        public let head: AuditHead
        /// The first break, if any.
        public let firstBreak: Break?
    }

    /// Reads the head, then every entry up to it in order, checking each link and that
    /// the last is the head's; stops at the first break. Entries appended meanwhile are
    /// left for the next check.
    public static func verify(_ records: any AuditRecords, pageSize: Int = 2_000) async throws(MonitoringError) -> Verification {
        // The head first: it and the entries up to it were committed together, so appends
        // made while the chain is read (a running server) are simply not looked at.
        let head = try await records.head()
        var expected = AuditHead.empty
        var count = 0
        reading: while expected.sequence < head.sequence {
            let page = try await records.chain(after: expected.sequence, limit: pageSize)
            for entry in page where entry.sequence <= head.sequence {
                count += 1
                if let failure = check(entry, after: expected) {
                    return Verification(entries: count, head: head, firstBreak: failure)
                }
                expected = AuditHead(sequence: entry.sequence, hash: entry.hash)
            }
            if page.count < pageSize || page.last.map({ $0.sequence >= head.sequence }) == true { break reading }
        }
        if head != expected {
            let reason =
                head.sequence > expected.sequence
                ? "the trail ends at entry \(expected.sequence) but its head says \(head.sequence): entries were removed from the end"
                : "the trail's head (entry \(head.sequence), \(head.hash.prefix(12))…) does not match its entry (\(expected.sequence), \(expected.hash.prefix(12))…)"
            return Verification(entries: count, head: head, firstBreak: Break(sequence: expected.sequence + 1, reason: reason))
        }
        return Verification(entries: count, head: head, firstBreak: nil)
    }

    /// Why `entry` does not follow `previous`, if it does not.
    static func check(_ entry: AuditEntry, after previous: AuditHead) -> Break? {
        if entry.sequence != previous.sequence + 1 {
            let missing =
                entry.sequence == previous.sequence + 2
                ? "entry \(previous.sequence + 1) is missing" : "entries \(previous.sequence + 1)–\(entry.sequence - 1) are missing"
            return Break(sequence: entry.sequence, reason: "\(missing) (removed, or renumbered)")
        }
        if entry.previousHash != previous.hash {
            return Break(sequence: entry.sequence, reason: "its link to the entry before does not match (an entry before it was replaced)")
        }
        if hash(sequence: entry.sequence, previousHash: entry.previousHash, event: entry.event) != entry.hash {
            return Break(sequence: entry.sequence, reason: "its contents do not match its hash (it was changed)")
        }
        return nil
    }
}
