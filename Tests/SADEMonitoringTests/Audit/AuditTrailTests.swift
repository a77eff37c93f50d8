import Foundation
import GRDB
import PostgresNIO
import SADETestTiming
import Testing
import SADEHealth
@testable import SADEMonitoring
import SADEPostgres
import SADETestSupport

/// A trail of a test and a way to change its tables behind its back (an attacker with
/// the database file or a superuser's connection).
struct AuditBackend: Sendable {
    let records: any AuditRecords
    /// Runs the SQL given for this backend on the trail's database.
    let tamper: @Sendable (_ sqlite: String, _ postgres: String) async throws -> Void
    /// Another handle on the same trail, as a second node has (PostgreSQL), or the same one.
    let sibling: @Sendable () async throws -> any AuditRecords

    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case sqlite, postgres
        var testDescription: String { rawValue }
    }

    static func make(_ kind: Kind) async throws -> AuditBackend {
        switch kind {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("audit-\(UUID().uuidString)").path
            let records = try SQLiteAuditRecords(directory: directory)
            let path = (directory as NSString).appendingPathComponent(SQLiteAuditRecords.fileName)
            return AuditBackend(
                records: records,
                tamper: { sql, _ in try DatabaseQueue(path: path).write { try $0.execute(sql: sql) } },
                sibling: { records })
        case .postgres:
            let url = try await PostgresTestServer.makeDatabase()
            let pool = try await PostgresPool.connect(PostgresLocation(url: url), maximumConnections: 4, timeout: .seconds(30))
            return AuditBackend(
                records: try await PostgresAuditRecords(pool),
                tamper: { _, sql in try await pool.query(PostgresQuery(unsafeSQL: sql)) },
                sibling: {
                    let other = try await PostgresPool.connect(PostgresLocation(url: url), maximumConnections: 4, timeout: .seconds(30))
                    return try await PostgresAuditRecords(other)
                })
        }
    }
}

/// One conformance suite for both backends of the audit trail.
@Suite("Audit trail (SQLite and PostgreSQL)", .timeLimit(.minutes(5)), .timed)
struct AuditTrailTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// `count` events: logins, reads of two patients and a change, a minute apart.
    static func events(_ count: Int, from offset: Int = 0) -> [AuditEvent] {
        (offset..<offset + count).map { index in
            switch index % 4 {
            case 0: AuditEvent(at: start + Double(index * 60), actor: "nurse1", role: .nurse, action: .login, target: "POST /api/v1/auth/login", status: 200, address: "10.0.0.1")
            case 1: AuditEvent(at: start + Double(index * 60), actor: "nurse1", role: .nurse, action: .read, patient: "p1", target: "GET /api/v1/patients/p1", status: 200, address: "10.0.0.1")
            case 2: AuditEvent(at: start + Double(index * 60), actor: "doctor1", role: .doctor, action: .read, patient: "p2", target: "GET /api/v1/patients/p2/observations", status: 403, address: "10.0.0.2")
            default: AuditEvent(at: start + Double(index * 60), actor: "admin", role: .admin, action: .accessChange, target: "PUT /api/v1/users/u1", status: 200, detail: "account nurse2: role nurse → doctor")
            }
        }
    }

    @Test("entries are chained in order, read back as written, and the head follows the last", arguments: AuditBackend.Kind.allCases)
    func chaining(kind: AuditBackend.Kind) async throws {
        let backend = try await AuditBackend.make(kind)
        #expect(try await backend.records.head() == .empty)
        let first = try await backend.records.append(Self.events(3))
        let second = try await backend.records.append(Self.events(5, from: 3))
        #expect(first.map(\.sequence) == [1, 2, 3] && second.map(\.sequence) == [4, 5, 6, 7, 8])
        #expect(first[0].previousHash == AuditChain.genesis && second[0].previousHash == first[2].hash)
        let stored = try await backend.records.chain(after: 0, limit: 100)
        #expect(stored == first + second, "every field read back as it was hashed")
        #expect(try await backend.records.head() == AuditHead(sequence: 8, hash: second[4].hash))
        #expect(try await backend.records.chain(after: 6, limit: 100).map(\.sequence) == [7, 8])
        let verification = try await AuditChain.verify(backend.records, pageSize: 3)
        #expect(verification.entries == 8 && verification.firstBreak == nil && verification.head.sequence == 8)
    }

    @Test("listing filters by actor, patient, action and time, newest first, in pages", arguments: AuditBackend.Kind.allCases)
    func listing(kind: AuditBackend.Kind) async throws {
        let backend = try await AuditBackend.make(kind)
        _ = try await backend.records.append(Self.events(12))
        let records = backend.records
        #expect(try await records.entries(AuditQuery()).map(\.sequence) == Array((1...12).reversed()))
        #expect(try await records.entries(AuditQuery(actor: "doctor1")).map(\.sequence) == [11, 7, 3])
        #expect(try await records.entries(AuditQuery(actor: "Doctor1")).map(\.sequence) == [11, 7, 3], "usernames regardless of case")
        #expect(try await records.entries(AuditQuery(patient: "p1")).map(\.sequence) == [10, 6, 2])
        #expect(try await records.entries(AuditQuery(action: .accessChange)).map(\.sequence) == [12, 8, 4])
        #expect(try await records.entries(AuditQuery(actor: "nurse1", action: .login)).map(\.sequence) == [9, 5, 1])
        let window = AuditQuery(since: Self.start + 120, until: Self.start + 300)
        #expect(try await records.entries(window).map(\.sequence) == [5, 4, 3], "since inclusive, until exclusive")
        let page1 = try await records.entries(AuditQuery(limit: 5))
        let page2 = try await records.entries(AuditQuery(before: page1.last?.sequence, limit: 5))
        let page3 = try await records.entries(AuditQuery(before: page2.last?.sequence, limit: 5))
        #expect(page1.map(\.sequence) == [12, 11, 10, 9, 8] && page2.map(\.sequence) == [7, 6, 5, 4, 3] && page3.map(\.sequence) == [2, 1])
        #expect(try await records.entries(AuditQuery(actor: "nobody")).isEmpty)
    }

    @Test("a changed entry is found, and every entry after it still links", arguments: AuditBackend.Kind.allCases)
    func changedEntry(kind: AuditBackend.Kind) async throws {
        let backend = try await AuditBackend.make(kind)
        _ = try await backend.records.append(Self.events(10))
        try await backend.tamper(
            "UPDATE auditEntry SET actor = 'admin' WHERE sequence = 6", "UPDATE audit_entry SET actor = 'admin' WHERE sequence = 6")
        let verification = try await AuditChain.verify(backend.records)
        #expect(verification.firstBreak?.sequence == 6)
        #expect(verification.firstBreak?.reason.contains("was changed") == true)
    }

    @Test("an entry rehashed after a change breaks the link of the next", arguments: AuditBackend.Kind.allCases)
    func rehashedEntry(kind: AuditBackend.Kind) async throws {
        let backend = try await AuditBackend.make(kind)
        let entries = try await backend.records.append(Self.events(6))
        var event = entries[2].event
        event.status = 200  // the doctor's refused read made to look allowed
        let forged = AuditChain.hash(sequence: 3, previousHash: entries[1].hash, event: event)
        try await backend.tamper(
            "UPDATE auditEntry SET status = 200, hash = '\(forged)' WHERE sequence = 3",
            "UPDATE audit_entry SET status = 200, hash = '\(forged)' WHERE sequence = 3")
        let verification = try await AuditChain.verify(backend.records)
        #expect(verification.firstBreak?.sequence == 4)
        #expect(verification.firstBreak?.reason.contains("link to the entry before") == true)
    }

    @Test("a removed entry, a renumbered one and a cut-off end are found", arguments: AuditBackend.Kind.allCases)
    func removedEntries(kind: AuditBackend.Kind) async throws {
        let backend = try await AuditBackend.make(kind)
        _ = try await backend.records.append(Self.events(10))
        try await backend.tamper("DELETE FROM auditEntry WHERE sequence = 4", "DELETE FROM audit_entry WHERE sequence = 4")
        var verification = try await AuditChain.verify(backend.records)
        #expect(verification.firstBreak == AuditChain.Break(sequence: 5, reason: "entry 4 is missing (removed, or renumbered)"))

        try await backend.tamper(
            "UPDATE auditEntry SET sequence = sequence - 1 WHERE sequence > 4", "UPDATE audit_entry SET sequence = sequence - 1 WHERE sequence > 4")
        verification = try await AuditChain.verify(backend.records)
        #expect(verification.firstBreak?.sequence == 4, "renumbered to close the gap, its link gives it away")

        let tail = try await AuditBackend.make(kind)
        _ = try await tail.records.append(Self.events(10))
        try await tail.tamper("DELETE FROM auditEntry WHERE sequence >= 9", "DELETE FROM audit_entry WHERE sequence >= 9")
        verification = try await AuditChain.verify(tail.records)
        #expect(verification.entries == 8)
        #expect(verification.firstBreak?.sequence == 9)
        #expect(verification.firstBreak?.reason.contains("removed from the end") == true)
    }

    @Test("a head moved back, or an entry's action or role made unknown, is found", arguments: AuditBackend.Kind.allCases)
    func headAndValues(kind: AuditBackend.Kind) async throws {
        let backend = try await AuditBackend.make(kind)
        _ = try await backend.records.append(Self.events(8))
        try await backend.tamper(
            "UPDATE auditHead SET sequence = 0, hash = '\(AuditChain.genesis)'", "UPDATE audit_head SET sequence = 0, hash = '\(AuditChain.genesis)'")
        var verification = try await AuditChain.verify(backend.records)
        #expect(verification.firstBreak?.sequence == 1 && verification.firstBreak?.reason.contains("moved back") == true)

        let values = try await AuditBackend.make(kind)
        _ = try await values.records.append(Self.events(8))
        try await values.tamper("UPDATE auditEntry SET action = 'peek' WHERE sequence = 2", "UPDATE audit_entry SET action = 'peek' WHERE sequence = 2")
        verification = try await AuditChain.verify(values.records)
        #expect(verification.firstBreak?.sequence == 2, "read back as 'read', it must not verify")
        try await values.tamper("UPDATE auditEntry SET action = 'read' WHERE sequence = 2", "UPDATE audit_entry SET action = 'read' WHERE sequence = 2")
        try await values.tamper("UPDATE auditEntry SET role = 'god' WHERE sequence = 4", "UPDATE audit_entry SET role = 'god' WHERE sequence = 4")
        verification = try await AuditChain.verify(values.records)
        #expect(verification.firstBreak?.sequence == 4)
    }

    @Test("events recorded at once by many callers (and two nodes) make one unbroken chain", arguments: AuditBackend.Kind.allCases)
    func concurrentRecording(kind: AuditBackend.Kind) async throws {
        let backend = try await AuditBackend.make(kind)
        let trails = [AuditTrail(records: backend.records, batchLimit: 16), AuditTrail(records: try await backend.sibling(), batchLimit: 16)]
        let events = Self.events(400)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, event) in events.enumerated() {
                group.addTask { try await trails[index % 2].record(event) }
            }
            try await group.waitForAll()
        }
        let stored = try await backend.records.chain(after: 0, limit: 1000)
        #expect(stored.map(\.sequence) == Array(1...400))
        #expect(Set(stored.map(\.event)) == Set(events))
        let verification = try await trails[0].verify()
        #expect(verification.entries == 400 && verification.firstBreak == nil)
    }

    @Test("a check while entries are appended sees the chain up to the head it read first, intact", arguments: AuditBackend.Kind.allCases)
    func verifyWhileAppending(kind: AuditBackend.Kind) async throws {
        let backend = try await AuditBackend.make(kind)
        let trail = AuditTrail(records: backend.records, batchLimit: 4)
        _ = try await backend.records.append(Self.events(10))
        let appending = Task {
            for event in Self.events(200, from: 10) { try await trail.record(event) }
        }
        var checks: [AuditChain.Verification] = []
        while checks.count < 20 || !checks.contains(where: { $0.head.sequence < 210 && $0.head.sequence > 10 }) {
            checks.append(try await AuditChain.verify(backend.records, pageSize: 7))
            if checks.count > 500 { break }
        }
        try await appending.value
        #expect(checks.allSatisfy { $0.firstBreak == nil && $0.entries == Int($0.head.sequence) }, "\(checks.filter { $0.firstBreak != nil }.prefix(2))")
        #expect(try await AuditChain.verify(backend.records).entries == 210)
    }

    @Test("an event keeps its time to the millisecond, so that what is read back hashes the same")
    func millisecondTimes() {
        let event = AuditEvent(at: Date(timeIntervalSince1970: 1_800_000_000.123_456), actor: nil, action: .read, target: "GET /api/v1/x", status: 401)
        #expect(event.at == Date(timeIntervalSince1970: 1_800_000_000.123))
        #expect(AuditChain.milliseconds(event.at) == 1_800_000_000_123)
        let other = AuditEvent(at: event.at, actor: "", action: .read, target: "GET /api/v1/x", status: 401)
        #expect(
            AuditChain.hash(sequence: 1, previousHash: AuditChain.genesis, event: event)
                != AuditChain.hash(sequence: 1, previousHash: AuditChain.genesis, event: other), "no actor and an empty one differ")
    }
}
