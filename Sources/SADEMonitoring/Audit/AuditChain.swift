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

    /// Reads every entry in order, checking each link, then the head: the last entry must
    /// be the head's. Entries appended while the chain is read (a running server) are
    /// followed until the head read after them is reached; an entry beyond the head (the
    /// head moved back) or a head beyond the last entry (entries cut off the end) is a
    /// break. Stops at the first break.
    public static func verify(_ records: any AuditRecords, pageSize: Int = 2_000) async throws(MonitoringError) -> Verification {
        var expected = AuditHead.empty
        var count = 0
        /// Checks every entry after `expected` (up to `last`); the first break, if any.
        func walk(upTo last: Int64 = .max) async throws(MonitoringError) -> Break? {
            while true {
                let page = try await records.chain(after: expected.sequence, limit: pageSize)
                for entry in page {
                    if entry.sequence > last { return nil }
                    count += 1
                    if let failure = check(entry, after: expected) { return failure }
                    expected = AuditHead(sequence: entry.sequence, hash: entry.hash)
                }
                if page.count < pageSize { return nil }
            }
        }
        var head = try await records.head()
        if let failure = try await walk() { return Verification(entries: count, head: head, firstBreak: failure) }
        // Entries and their head are committed together: a head read after the walk is at
        // least as far as the entries it saw, unless someone moved it back.
        head = try await records.head()
        if expected.sequence < head.sequence, let failure = try await walk(upTo: head.sequence) {
            return Verification(entries: count, head: head, firstBreak: failure)
        }
        if expected.sequence > head.sequence {
            let reason = "entries go on to \(expected.sequence) but the head says \(head.sequence): the head was moved back"
            return Verification(entries: count, head: head, firstBreak: Break(sequence: head.sequence + 1, reason: reason))
        }
        if expected.sequence < head.sequence {
            let reason = "the trail ends at entry \(expected.sequence) but its head says \(head.sequence): entries were removed from the end"
            return Verification(entries: count, head: head, firstBreak: Break(sequence: expected.sequence + 1, reason: reason))
        }
        if expected.hash != head.hash {
            let reason = "the head's hash (\(head.hash.prefix(12))…) is not entry \(head.sequence)'s (\(expected.hash.prefix(12))…)"
            return Verification(entries: count, head: head, firstBreak: Break(sequence: head.sequence, reason: reason))
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
