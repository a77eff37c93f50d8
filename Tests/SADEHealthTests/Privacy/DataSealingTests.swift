import Foundation
import SADETestTiming
import Testing
import SADEHealth
@testable import SADEHealthSQLite
import SADETestSupport

@Suite("Data keys: sealing identifying data", .timeLimit(.minutes(5)), .timed)
struct DataKeyRingTests {
    @Test("a sealed value opens for its own record only, under any key of the ring, and not once altered")
    func sealAndOpen() throws {
        let old = DataKeyRing.Key.random(), new = DataKeyRing.Key.random()
        let before = try DataKeyRing([old])
        let sealed = try before.seal("Ana Lima", context: "patient:p1")
        #expect(sealed.hasPrefix("sealed:v1:\(old.id):") && !sealed.contains("Ana"))
        #expect(try before.seal("Ana Lima", context: "patient:p1") != sealed, "a fresh nonce every time")
        #expect(try before.open(sealed, context: "patient:p1") == "Ana Lima")
        #expect(try before.open("Ana Lima", context: "patient:p1") == "Ana Lima", "written before a key was set: as it is")
        #expect(throws: DataKeyRing.Failure(description: "a sealed value of patient:p2 does not open: altered, or another record's")) {
            try before.open(sealed, context: "patient:p2")
        }
        var altered = Array(sealed)
        altered[altered.count - 3] = altered[altered.count - 3] == "A" ? "B" : "A"
        #expect(throws: DataKeyRing.Failure.self) { try before.open(String(altered), context: "patient:p1") }

        let during = try DataKeyRing([new, old])
        #expect(try during.open(sealed, context: "patient:p1") == "Ana Lima")
        #expect(try during.seal("x", context: "c").hasPrefix("sealed:v1:\(new.id):"))
        let after = try DataKeyRing([new])
        #expect(throws: DataKeyRing.Failure(description: "patient:p1 is sealed under data key \(old.id), which the data key file does not hold")) {
            try after.open(sealed, context: "patient:p1")
        }
    }

    @Test("a key file is written for its owner only and read back; bad files are refused naming the line")
    func keyFiles() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
        let path = directory.path + "/keys"
        let ring = try DataKeyRing([.random(), .random()])
        try ring.write(to: path)
        let permissions = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
        let read = try DataKeyRing(fileAt: path)
        #expect(read.keys.map(\.id) == ring.keys.map(\.id) && read.current.id == ring.current.id)
        #expect(try read.open(try ring.seal("secret", context: "c"), context: "c") == "secret")

        for (text, message) in [
            ("# only a comment\n", "the data key file \(path) holds no key"),
            ("sade-data-key:v1:AAAA\n", "\(path), line 1: a data key is 32 bytes, not 3"),
            ("\nhello\n", "\(path), line 2: not a data key (sade-data-key:v1:<32 bytes in base64>)"),
        ] {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            #expect(throws: DataKeyRing.Failure(description: message)) { try DataKeyRing(fileAt: path) }
        }
        #expect(throws: DataKeyRing.Failure.self) { try DataKeyRing(fileAt: directory.path + "/missing") }
    }
}

@Suite("Sealed clinical registry (SQLite file and PostgreSQL)", .timeLimit(.minutes(5)), .timed)
struct SealingHealthStoreTests {
    static let born = Date(timeIntervalSince1970: -312_940_800)  // 1960-02-01

    @Test("names, dates of birth and contact details are stored sealed and read open; lists stay sorted by name", arguments: [StoreKind.file, .postgres])
    func sealedRecords(kind: StoreKind) async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let inner: any HealthStore & ClinicalRegistry =
            kind == .file ? try SQLiteHealthStore(directory: directory.path) : try await makeStore(kind)
        let store = SealingHealthStore(inner, keys: try DataKeyRing([.random()]))
        try await store.save(Hospital(id: "h1", name: "General"))
        try await store.save(HospitalSector(id: "icu", hospital: "h1", name: "ICU"))
        try await store.save(Patient(id: "p2", name: "Zoe Quist", dateOfBirth: Self.born, sector: "icu", bed: "4"))
        try await store.save(Patient(id: "p1", name: "Yusuf Ekberg", sector: "icu", bed: "5", attributes: ["onRespirator": "true"]))
        var worker = HealthCareWorker.nurse(id: "n1", name: "Wanda Nightingale", sectors: ["icu"], email: "wanda@hospital.test")
        worker.phone = "+44 20 7946 0018"
        worker.licence = "RN-4471"
        try await store.save(worker)

        let patient = try #require(try await store.patient("p2"))
        #expect(patient.name == "Zoe Quist" && patient.dateOfBirth == Self.born && patient.bed == "4" && patient.sector == "icu")
        #expect(try await store.patients(in: "icu").map(\.name) == ["Yusuf Ekberg", "Zoe Quist"])
        #expect(try await store.patients(["p1", "p2"])["p1"]?.attributes == ["onRespirator": "true"])
        #expect(try await store.worker("n1") == worker)
        #expect(try await store.workers(in: "icu") == [worker])

        let stored = try #require(try await inner.patient("p2"))
        #expect(DataKeyRing.isSealed(stored.name) && stored.dateOfBirth == nil && stored.bed == "4")
        let storedWorker = try #require(try await inner.worker("n1"))
        #expect(DataKeyRing.isSealed(storedWorker.name) && storedWorker.email == nil && storedWorker.phone == nil && storedWorker.licence == nil)
        if kind == .file {
            // What a stolen disk holds: the database file and its write-ahead log.
            var bytes = Data()
            for file in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
                bytes += try Data(contentsOf: URL(fileURLWithPath: directory.path + "/" + file))
            }
            for secret in ["Zoe Quist", "Yusuf", "Nightingale", "wanda@hospital.test", "7946", "RN-4471"] {
                #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(secret) is in the files")
            }
            #expect(bytes.range(of: Data("General".utf8)) != nil, "the hospital's name is not sealed: the check can see text")
        }

        let stranger = SealingHealthStore(inner, keys: try DataKeyRing([.random()]))
        await #expect(throws: HealthError.self) { try await stranger.patient("p2") }
    }

    @Test("a record written before there was a key reads as it is, and is sealed when saved again")
    func plainRecords() async throws {
        let inner = try SQLiteHealthStore.inMemory()
        try await inner.save(Patient(id: "p1", name: "Old Record"))
        let store = SealingHealthStore(inner, keys: try DataKeyRing([.random()]))
        let patient = try #require(try await store.patient("p1"))
        #expect(patient.name == "Old Record")
        try await store.save(patient)
        #expect(try await inner.patient("p1").map { DataKeyRing.isSealed($0.name) } == true)
        #expect(try await store.patient("p1")?.name == "Old Record")
    }
}
