import Foundation
import SADETestTiming
import Testing
import SADEHealth
import SADEMonitoring
@testable import SADEServer

@Suite("Device tokens", .timeLimit(.minutes(5)), .timed)
struct DeviceTokenAdminTests {
    @Test("an issued token authenticates as its patient's device until it is revoked")
    func issueAndRevoke() async throws {
        try await ServerHarness.run { harness in
            let ward = try await AdminWard.seed(in: harness)
            let issued = try await harness.request(.post, "/api/v1/patients/patient-02/devices", token: ward.admin, json: ["label": "bedside 1"])
            #expect(issued.status == .created)
            let secret = try #require(issued.object?["secret"] as? String)
            let token = try #require(issued.object?["token"] as? [String: Any])
            let id = try #require(token["id"] as? String)
            #expect(token["label"] as? String == "bedside 1" && token["patientID"] as? String == "patient-02")

            let me = try await harness.request(.get, "/api/v1/auth/me", token: secret)
            #expect(me.status == .ok && me.object?["role"] as? String == "device" && me.object?["patientID"] as? String == "patient-02")

            let listed = try await harness.request(.get, "/api/v1/patients/patient-02/devices", token: ward.admin)
            #expect(listed.array?.count == 1 && !listed.text.contains(secret))

            let revoke = try await harness.request(.delete, "/api/v1/patients/patient-02/devices/\(id)", token: ward.admin)
            #expect(revoke.status == .noContent)
            let refused = try await harness.request(.get, "/api/v1/auth/me", token: secret)
            #expect(refused.status == .unauthorized)
            let after = try await harness.request(.get, "/api/v1/patients/patient-02/devices", token: ward.admin)
            #expect((after.array?.first as? [String: Any])?["revokedAt"] as? String != nil)
            #expect(try await harness.request(.delete, "/api/v1/patients/patient-02/devices/\(id)", token: ward.admin).status == .conflict)
        }
    }

    @Test("device tokens are admin only; unknown patients and tokens are 404; the label defaults")
    func rules() async throws {
        try await ServerHarness.run { harness in
            let ward = try await AdminWard.seed(in: harness)
            let existing = try #require(try await harness.system.devices.tokens(for: "patient-01").first)
            try await ward.expectAdminOnly(harness, .post, "/api/v1/patients/patient-01/devices", json: ["label": "rogue"])
            try await ward.expectAdminOnly(harness, .get, "/api/v1/patients/patient-01/devices")
            try await ward.expectAdminOnly(harness, .delete, "/api/v1/patients/patient-01/devices/\(existing.id)")
            #expect(try await harness.system.devices.tokens(for: "patient-01").count == 1)

            #expect(try await harness.request(.post, "/api/v1/patients/ghost/devices", token: ward.admin).status == .notFound)
            #expect(try await harness.request(.delete, "/api/v1/patients/patient-02/devices/\(existing.id)", token: ward.admin).status == .notFound)
            let unlabelled = try await harness.request(.post, "/api/v1/patients/patient-02/devices", token: ward.admin)
            #expect(unlabelled.status == .created)
            #expect((unlabelled.object?["token"] as? [String: Any])?["label"] as? String == "monitor of patient-02")
            let blank = try await harness.request(.post, "/api/v1/patients/patient-02/devices", token: ward.admin, json: ["label": " "])
            #expect(blank.status == .badRequest && blank.errorMessage?.hasPrefix("label") == true)
        }
    }
}
