import Foundation
import SADETestTiming
import Testing
import SADEHealth
import SADEMonitoring
@testable import SADEServer

@Suite("Hospitals and sectors", .timeLimit(.minutes(5)), .timed)
struct HospitalAdminTests {
    @Test("staff read hospitals and sectors; patients, devices and anonymous callers may not")
    func reading() async throws {
        try await ServerHarness.run { harness in
            let ward = try await AdminWard.seed(in: harness)
            for token in [ward.admin, ward.nurse1, ward.doctor1] {
                let hospitals = try await harness.request(.get, "/api/v1/hospitals", token: token)
                #expect(hospitals.status == .ok)
                #expect((hospitals.array?.first as? [String: Any])?["id"] as? String == "h1")
                let sectors = try await harness.request(.get, "/api/v1/hospitals/h1/sectors", token: token)
                #expect((sectors.array as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["covid-ward", "icu"])
            }
            for token in [ward.patient, ward.device] {
                #expect(try await harness.request(.get, "/api/v1/hospitals", token: token).status == .forbidden)
                #expect(try await harness.request(.get, "/api/v1/sectors", token: token).status == .forbidden)
            }
            #expect(try await harness.request(.get, "/api/v1/sectors/icu").status == .unauthorized)
            #expect(try await harness.request(.get, "/api/v1/sectors/icu", token: ward.nurse2).object?["name"] as? String == "ICU")
            #expect(try await harness.request(.get, "/api/v1/sectors/nowhere", token: ward.nurse2).status == .notFound)
            #expect(try await harness.request(.get, "/api/v1/hospitals/nowhere/sectors", token: ward.nurse2).status == .notFound)
        }
    }

    @Test("only an admin writes hospitals and sectors")
    func writingIsAdminOnly() async throws {
        try await ServerHarness.run { harness in
            let ward = try await AdminWard.seed(in: harness)
            try await ward.expectAdminOnly(harness, .post, "/api/v1/hospitals", json: ["id": "h2", "name": "Other"])
            try await ward.expectAdminOnly(harness, .put, "/api/v1/hospitals/h1", json: ["name": "Renamed"])
            try await ward.expectAdminOnly(harness, .post, "/api/v1/sectors", json: ["id": "er", "hospital": "h1", "name": "ER"])
            try await ward.expectAdminOnly(harness, .put, "/api/v1/sectors/icu", json: ["mailingList": ["x@example.org"]])
            #expect(try await harness.system.health.hospitals().map(\.name) == ["General"])
        }
    }

    @Test("an admin creates and updates hospitals and sectors, with the sector's mailing list")
    func roundTrip() async throws {
        try await ServerHarness.run { harness in
            let ward = try await AdminWard.seed(in: harness)
            let hospital = try await harness.request(
                .post, "/api/v1/hospitals", token: ward.admin, json: ["id": "h2", "name": "St Mary", "address": "Praed St"])
            #expect(hospital.status == .created && hospital.object?["address"] as? String == "Praed St")
            let renamed = try await harness.request(.put, "/api/v1/hospitals/h2", token: ward.admin, json: ["name": "St Mary's"])
            #expect(renamed.object?["name"] as? String == "St Mary's" && renamed.object?["address"] as? String == "Praed St")

            let sector = try await harness.request(
                .post, "/api/v1/sectors", token: ward.admin, raw: #"{"id": "er", "hospital": "h2", "name": "ER", "mailingList": ["er@example.org"]}"#)
            #expect(sector.status == .created)
            let listed = try await harness.request(
                .put, "/api/v1/sectors/er", token: ward.admin, json: ["mailingList": ["a@example.org", "b@example.org"]])
            #expect(listed.object?["mailingList"] as? [String] == ["a@example.org", "b@example.org"])
            let stored = try await harness.system.health.sectors(of: "h2")
            #expect(stored == [HospitalSector(id: "er", hospital: "h2", name: "ER", mailingList: ["a@example.org", "b@example.org"])])
        }
    }

    @Test("bad hospital and sector fields are 400 naming the field; duplicates 409; unknown ids 404")
    func validation() async throws {
        try await ServerHarness.run { harness in
            let ward = try await AdminWard.seed(in: harness)
            let duplicate = try await harness.request(.post, "/api/v1/hospitals", token: ward.admin, json: ["id": "h1", "name": "Again"])
            #expect(duplicate.status == .conflict)
            let noName = try await harness.request(.post, "/api/v1/hospitals", token: ward.admin, json: ["id": "h3"])
            #expect(noName.status == .badRequest && noName.errorMessage?.hasPrefix("name") == true)
            let badID = try await harness.request(.post, "/api/v1/hospitals", token: ward.admin, json: ["id": "h 3", "name": "X"])
            #expect(badID.status == .badRequest && badID.errorMessage?.hasPrefix("id") == true)
            #expect(try await harness.request(.put, "/api/v1/hospitals/h9", token: ward.admin, json: ["name": "X"]).status == .notFound)

            let orphan = try await harness.request(.post, "/api/v1/sectors", token: ward.admin, json: ["id": "er", "hospital": "h9", "name": "ER"])
            #expect(orphan.status == .badRequest && orphan.errorMessage?.hasPrefix("hospital") == true)
            let sectorTwice = try await harness.request(.post, "/api/v1/sectors", token: ward.admin, json: ["id": "icu", "hospital": "h1", "name": "ICU"])
            #expect(sectorTwice.status == .conflict)
            let badMail = try await harness.request(
                .put, "/api/v1/sectors/icu", token: ward.admin, json: ["mailingList": ["ok@example.org", "not an address"]])
            #expect(badMail.status == .badRequest && badMail.errorMessage?.hasPrefix("mailingList[1]") == true)
            // Found by schemathesis: control characters, an empty domain label, a non-ASCII address the mail cannot go to.
            for address in ["a\u{15}b@example.org", "ab@example.", "ab@.org", "a..b@example.org", "ab@exa_mple.org", "né@example.org", "ab@example"] {
                let refused = try await harness.request(.put, "/api/v1/sectors/icu", token: ward.admin, json: ["mailingList": [address]])
                #expect(refused.status == .badRequest, "\(address.debugDescription): \(refused.text)")
            }
            let plus = try await harness.request(.put, "/api/v1/sectors/icu", token: ward.admin, json: ["mailingList": [" night.shift+icu@st-mary.example.org "]])
            #expect(plus.object?["mailingList"] as? [String] == ["night.shift+icu@st-mary.example.org"], "\(plus.text)")
            #expect(try await harness.request(.put, "/api/v1/sectors/nowhere", token: ward.admin, json: ["name": "X"]).status == .notFound)
        }
    }
}
