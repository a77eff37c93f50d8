import Foundation
import SADEHealth
import SADEHealthSQLite
import SADETestSupport
import SADETestTiming
import Testing

@Suite("SQLite store: the database file", .timeLimit(.minutes(5)), .timed)
struct SQLitePersistenceTests {
    @Test("reopening the file keeps samples, grants and the registry, and runs each migration once")
    func reopens() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let nested = directory.path + "/data/health"
        let agent = Principal.agent("Collector")
        let sample = pulse(70, at: 0)
        let anchor: HealthAnchor
        do {
            let store = try SQLiteHealthStore(directory: nested)
            #expect(FileManager.default.fileExists(atPath: nested + "/health.sqlite"))
            try await store.save(sample, as: .system)
            // A DatabasePool keeps the database in WAL mode: the log sits beside the file.
            #expect(FileManager.default.fileExists(atPath: nested + "/health.sqlite-wal"))
            try await store.grant(AccessGrant(agent, .read, patients: ["p-1"]))
            try await store.save(Hospital(id: "h-1", name: "H"))
            try await store.save(Patient(id: "p-1", name: "Ana", attributes: ["onRespirator": "true"]))
            anchor = try await store.changes(.quantity(.heartRate), patient: nil, since: .start, limit: nil, as: .system).anchor
        }
        let store = try SQLiteHealthStore(directory: nested)
        #expect(try await store.appliedMigrations() == ["v1-samples", "v1-clinical", "v1-authorization"])
        #expect(try await store.samples(SampleQuery(.quantity(.heartRate), patient: "p-1"), as: agent) == [sample])
        #expect(try await store.hospitals().map(\.id) == ["h-1"])
        #expect(try await store.patient("p-1")?.attributes == ["onRespirator": "true"])

        // The change counter goes on from where it was.
        let later = pulse(71, at: 1)
        try await store.save(later, as: .system)
        let changes = try await store.changes(.quantity(.heartRate), patient: nil, since: anchor, limit: nil, as: .system)
        #expect(changes.added == [later])
        #expect(changes.anchor > anchor)
    }

    @Test("a data directory that cannot be created is a storage error")
    func unusableDirectory() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
        let file = directory.path + "/not-a-directory"
        #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
        #expect {
            _ = try SQLiteHealthStore(directory: file + "/data")
        } throws: { error in
            guard case .storage = error as? HealthError else { return false }
            return true
        }
    }
}
