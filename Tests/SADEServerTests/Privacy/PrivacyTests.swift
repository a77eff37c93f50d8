import Foundation
import SADEHealth
import SADEHealthPostgres
import SADEHome
import SADEMonitoring
import SADEPostgres
import SADETestSupport
import SADETestTiming
import Testing
@testable import SADEServer

/// Where a privacy test's server keeps everything: SQLite files, or one PostgreSQL database.
enum PrivacyBackend: String, CaseIterable, CustomTestStringConvertible {
    case sqlite, postgres
    var testDescription: String { rawValue }

    /// Runs `body` against a server on this backend.
    func run(_ body: @Sendable @escaping (ServerHarness) async throws -> Void) async throws {
        switch self {
        case .sqlite:
            try await ServerHarness.run(body)
        case .postgres:
            let pool = try await PostgresPool.connect(
                PostgresLocation(url: PostgresTestServer.makeDatabase()), maximumConnections: 8, timeout: .seconds(30))
            try await ServerHarness.run(healthStore: try await PostgresHealthStore(pool), postgres: pool, body)
            await pool.close()
        }
    }
}

@Suite("Privacy: a person's export and erasure, sample retention", .timeLimit(.minutes(3)), .timed)
struct PrivacyTests {
    /// `patient-01` with samples, an alert and its notices, a patient account, two device
    /// tokens; `ana`, a wearable user with a data item. Returns ana's patient id.
    static func seedHistory(_ harness: ServerHarness, _ ward: AdminWard) async throws -> PatientID {
        let now = harness.system.now()
        let posted = try await harness.request(
            .post, "/api/v1/patients/patient-01/observations", token: ward.device, json: AlertFlowTests.deteriorated(at: now))
        #expect(posted.status == .created, "\(posted.text)")
        let other = try await harness.request(
            .post, "/api/v1/patients/patient-02/observations", token: ward.admin, json: AlertFlowTests.deteriorated(at: now))
        #expect(other.status == .created)
        await harness.system.pipeline.settle()
        _ = try await harness.system.devices.issue(for: "patient-01", label: "watch", at: now)
        let ana = try await harness.wearableUser("ana")
        #expect(try await harness.postDataItem(WearableClientPayloads.esp32(bpm: 81, temperature: 36.8), token: ana).status == .created)
        return try #require(try await harness.system.accounts.account(username: "ana")?.patientID)
    }

    @Test("the patient or an admin exports everything held about them; nobody else may", arguments: PrivacyBackend.allCases)
    func export(backend: PrivacyBackend) async throws {
        try await backend.run { harness in
            let ward = try await AdminWard.seed(in: harness)
            _ = try await Self.seedHistory(harness, ward)
            for (who, token) in [("nurse", ward.nurse1), ("doctor", ward.doctor1), ("device", ward.device)] {
                #expect(try await harness.request(.get, "/api/v1/patients/patient-01/export", token: token).status == .forbidden, "\(who)")
            }
            #expect(try await harness.request(.get, "/api/v1/patients/patient-02/export", token: ward.patient).status == .forbidden)
            #expect(try await harness.request(.get, "/api/v1/patients/patient-01/export").status == .unauthorized)
            #expect(try await harness.request(.get, "/api/v1/patients/nobody/export", token: ward.admin).status == .notFound)

            for token in [ward.patient, ward.admin] {
                let export = try await harness.request(.get, "/api/v1/patients/patient-01/export", token: token)
                #expect(export.status == .ok, "\(export.text)")
                let record = try #require(export.object)
                let bundle = try #require(record["fhir"] as? [String: Any])
                #expect(bundle["resourceType"] as? String == "Bundle")
                let resources = (bundle["entry"] as? [[String: Any]] ?? []).compactMap { ($0["resource"] as? [String: Any])?["resourceType"] as? String }
                #expect(resources.filter { $0 == "Observation" }.count >= 6 && resources.contains("Patient"), "\(resources)")
                #expect((record["patient"] as? [String: Any])?["id"] as? String == "patient-01")
                let alerts = try #require(record["alerts"] as? [[String: Any]])
                #expect(!alerts.isEmpty && alerts.allSatisfy { $0["patient"] as? String == "patient-01" })
                #expect((record["notices"] as? [[String: Any]])?.isEmpty == false)
                #expect((record["accounts"] as? [[String: Any]])?.compactMap { $0["username"] as? String } == ["pat1"])
                #expect(Set((record["deviceTokens"] as? [[String: Any]] ?? []).compactMap { $0["label"] as? String }) == ["monitor 1", "watch"])
                #expect(!export.text.contains("secret") && !export.text.contains("passwordHash"))
            }
            let exports = try await harness.system.audit.entries(AuditQuery(action: .export)).filter { $0.event.status == 200 }
            #expect(exports.map(\.event.actor) == ["admin", "pat1"] && exports.allSatisfy { $0.event.patient == "patient-01" })
        }
    }

    @Test("""
        erasing a patient removes their record, samples, alerts, notices, accounts, device tokens and wearable items from every store, \
        leaves the others' alone, and leaves an audit entry with no health data
        """, arguments: PrivacyBackend.allCases)
    func erasure(backend: PrivacyBackend) async throws {
        try await backend.run { harness in
            let ward = try await AdminWard.seed(in: harness)
            let ana = try await Self.seedHistory(harness, ward)
            let system = harness.system
            let before = try await system.personalData(of: "patient-01")
            #expect(!before.samples.isEmpty && !before.alerts.isEmpty && !before.notices.isEmpty && before.deviceTokens.count == 2)
            let othersAlerts = try await system.pipeline.book.alerts(status: .all, patients: ["patient-02"])
            #expect(!othersAlerts.isEmpty)

            try await ward.expectAdminOnly(harness, .delete, "/api/v1/patients/patient-01")
            let erased = try await harness.request(.delete, "/api/v1/patients/patient-01", token: ward.admin)
            #expect(erased.status == .ok, "\(erased.text)")
            #expect(erased.object?["accounts"] as? Int == 1 && erased.object?["deviceTokens"] as? Int == 2)
            #expect(erased.object?["alerts"] as? Int == before.alerts.count && erased.object?["notices"] as? Int == before.notices.count)

            #expect(try await system.health.patient("patient-01") == nil)
            for type in HealthType.all {
                #expect(try await system.health.samples(SampleQuery(type, patient: "patient-01"), as: .system).isEmpty, "\(type)")
            }
            #expect(try await system.pipeline.book.alerts(status: .all, patients: ["patient-01"]).isEmpty)
            #expect(try await system.outbox.notices(about: "patient-01").isEmpty)
            for notice in before.notices { #expect(try await system.outbox.notification(notice.id) == nil) }
            #expect(try await system.accounts.account(username: "pat1") == nil)
            #expect(try await system.devices.tokens(for: "patient-01").isEmpty)
            #expect(try await harness.request(.post, "/api/v1/patients/patient-01/observations", token: ward.device, json: [Observation("heartRate", 70, at: system.now())]).status == .unauthorized)
            #expect(try await harness.request(.get, "/api/v1/patients/patient-01", token: ward.admin).status == .notFound)
            #expect(try await harness.request(.delete, "/api/v1/patients/patient-01", token: ward.admin).status == .notFound)

            #expect(try await system.pipeline.book.alerts(status: .all, patients: ["patient-02"]) == othersAlerts, "the others' stay")
            #expect(try await system.health.patient("patient-02") != nil)

            let anaAccount = try #require(try await system.accounts.account(username: "ana"))
            #expect(!(try await system.wearableStore.items(ownedBy: anaAccount.id)).isEmpty)
            let wearable = try await harness.request(.delete, "/api/v1/patients/\(ana.rawValue)", token: ward.admin)
            #expect(wearable.object?["wearableItems"] as? Int == 1 && wearable.object?["accounts"] as? Int == 1, "\(wearable.text)")
            #expect(try await system.wearableStore.items(ownedBy: anaAccount.id).isEmpty)

            let entries = try await system.audit.entries(AuditQuery(action: .erase))
            #expect(entries.map(\.event.patient) == [ana, "patient-01"])
            #expect(entries.allSatisfy { $0.event.actor == "admin" && $0.event.status == 200 && $0.event.detail?.contains("erased") == true })
            let verification = try await system.audit.verify()
            #expect(verification.firstBreak == nil)
        }
    }

    @Test("a flat's resident is not erased until moved out: the flat's sensor history is not theirs alone")
    func residentRefused() async throws {
        try await ServerHarness.run { harness in
            let ward = try await AdminWard.seed(in: harness)
            _ = try await harness.system.home.createFlat(FlatPlan(name: "F", resident: "patient-02", rooms: [
                RoomPlan(name: "R", type: .other, polygon: [.init(x: 0, y: 0), .init(x: 1, y: 0), .init(x: 1, y: 1)]),
            ]))
            let refused = try await harness.request(.delete, "/api/v1/patients/patient-02", token: ward.admin)
            #expect(refused.status == .conflict && refused.errorMessage?.contains("move them out") == true, "\(refused.text)")
            #expect(try await harness.system.health.patient("patient-02") != nil)
        }
    }

    @Test("retention purges samples older than the period in batches, newer ones kept", arguments: PrivacyBackend.allCases)
    func retention(backend: PrivacyBackend) async throws {
        try await backend.run { harness in
            let ward = try await AdminWard.seed(in: harness)
            let now = harness.system.now()
            for days in [40.0, 35, 31, 29, 1] {
                let at = now.addingTimeInterval(-days * 86_400)
                let body = [Observation("heartRate", 70, at: at), Observation("bloodPressureSystolic", 120, at: at), Observation("bloodPressureDiastolic", 80, at: at)]
                #expect(try await harness.request(.post, "/api/v1/patients/patient-01/observations", token: ward.device, json: body).status == .created)
            }
            let purged = try await harness.system.purgeSamples(olderThan: .seconds(30 * 86_400), batch: 2)
            #expect(purged == 9, "3 of each type")
            let left = try await harness.system.health.samples(SampleQuery(.quantity(.heartRate), patient: "patient-01"), as: .system)
            #expect(left.map(\.start).sorted() == [now.addingTimeInterval(-29 * 86_400), now.addingTimeInterval(-86_400)])
            let systolic = try await harness.system.health.samples(SampleQuery(.quantity(.bloodPressureSystolic), patient: "patient-01"), as: .system)
            #expect(systolic.count == 2)
            #expect(try await harness.system.purgeSamples(olderThan: .seconds(30 * 86_400), batch: 2) == 0)
        }
    }
}
