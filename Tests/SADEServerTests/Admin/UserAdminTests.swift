import Foundation
import SADETestTiming
import Testing
import SADEHealth
import SADEMonitoring
@testable import SADEServer

@Suite("User administration", .timeLimit(.minutes(5)), .timed)
struct UserAdminTests {
    @Test("every user route is for admins only: 401 anonymous, 403 for nurse, doctor, patient and device")
    func adminOnly() async throws {
        try await ServerHarness.run { harness in
            let ward = try await AdminWard.seed(in: harness)
            let nurse = try #require(try await harness.system.accounts.account(username: "nurse1"))
            let body = ["username": "x1", "name": "X", "role": "nurse", "password": "long-enough-1"]
            try await ward.expectAdminOnly(harness, .get, "/api/v1/users")
            try await ward.expectAdminOnly(harness, .post, "/api/v1/users", json: body)
            try await ward.expectAdminOnly(harness, .get, "/api/v1/users/\(nurse.id)")
            try await ward.expectAdminOnly(harness, .put, "/api/v1/users/\(nurse.id)", json: ["name": "Evil"])
            try await ward.expectAdminOnly(harness, .delete, "/api/v1/users/\(nurse.id)")
            try await ward.expectAdminOnly(harness, .post, "/api/v1/users/\(nurse.id)/password", json: ["password": "hijacked-123"])
            #expect(try await harness.system.accounts.account(id: nurse.id)?.name == "Nurse1")
        }
    }

    @Test("creating a nurse creates her worker record; get, update, reset the password and delete round-trip")
    func roundTrip() async throws {
        try await ServerHarness.run { harness in
            let ward = try await AdminWard.seed(in: harness)
            let created = try await harness.request(
                .post, "/api/v1/users", token: ward.admin,
                raw: #"{"username": "nurse9", "name": "Nell", "role": "nurse", "password": "first-pass-9", "email": "nell@example.org", "sectors": ["icu"]}"#)
            #expect(created.status == .created)
            let id = try #require(created.id)
            #expect(created.object?["staffID"] as? String == "nurse9")
            #expect(created.object?["password"] == nil && created.object?["passwordHash"] == nil)
            let worker = try #require(try await harness.system.health.worker("nurse9"))
            #expect(worker.role == .nurse && worker.sectors == ["icu"] && worker.name == "Nell")

            let listed = try await harness.request(.get, "/api/v1/users?role=nurse", token: ward.admin)
            #expect((listed.array as? [[String: Any]])?.compactMap { $0["username"] as? String } == ["nurse1", "nurse2", "nurse9"])
            let fetched = try await harness.request(.get, "/api/v1/users/\(id)", token: ward.admin)
            #expect(fetched.object?["email"] as? String == "nell@example.org")

            let updated = try await harness.request(.put, "/api/v1/users/\(id)", token: ward.admin, json: ["name": "Nell N.", "email": ""])
            #expect(updated.status == .ok)
            #expect(updated.object?["name"] as? String == "Nell N." && updated.object?["email"] == nil)

            let reset = try await harness.request(.post, "/api/v1/users/\(id)/password", token: ward.admin, json: ["password": "second-pass-9"])
            #expect(reset.status == .noContent)
            _ = try await harness.login("nurse9", password: "second-pass-9")
            await #expect(throws: HarnessError.self) { try await harness.login("nurse9", password: "first-pass-9") }

            #expect(try await harness.request(.delete, "/api/v1/users/\(id)", token: ward.admin).status == .noContent)
            let gone = try await harness.request(.get, "/api/v1/users/\(id)", token: ward.admin)
            #expect(gone.status == .notFound && gone.errorCode == "not-found")
            #expect(try await harness.request(.delete, "/api/v1/users/\(id)", token: ward.admin).status == .notFound)
            #expect(try await harness.system.health.worker("nurse9") != nil)  // the clinical record stays
        }
    }

    @Test("deleting a nurse's account keeps her worker record but takes her off duty")
    func deleteTakesWorkerOffDuty() async throws {
        try await ServerHarness.run { harness in
            let ward = try await AdminWard.seed(in: harness)
            let onDuty = try await harness.request(.put, "/api/v1/staff/nurse1", token: ward.admin, json: ["onDuty": true])
            #expect(onDuty.object?["onDuty"] as? Bool == true)
            let account = try #require(try await harness.system.accounts.account(username: "nurse1"))
            #expect(try await harness.request(.delete, "/api/v1/users/\(account.id)", token: ward.admin).status == .noContent)
            let staff = try await harness.request(.get, "/api/v1/staff/nurse1", token: ward.admin)
            #expect(staff.status == .ok)
            #expect(staff.object?["onDuty"] as? Bool == false)
            #expect(try await harness.system.accounts.account(username: "nurse1") == nil)
        }
    }

    @Test("a doctor's account links to an existing worker; a patient's to their record")
    func links() async throws {
        try await ServerHarness.run { harness in
            let ward = try await AdminWard.seed(in: harness)
            try await harness.system.health.save(HealthCareWorker.doctor(id: "dr-who", name: "Who", sectors: ["icu"]))
            let doctor = try await harness.request(
                .post, "/api/v1/users", token: ward.admin,
                json: ["username": "who", "name": "The Doctor", "role": "doctor", "password": "tardis-tardis", "staffID": "dr-who"])
            #expect(doctor.status == .created)
            #expect(try await harness.system.health.worker("dr-who")?.sectors == ["icu"])
            let patient = try await harness.request(
                .post, "/api/v1/users", token: ward.admin,
                json: ["username": "pia", "name": "Pia", "role": "patient", "password": "pia-pia-pia", "patientID": "patient-02"])
            #expect(patient.status == .created)
            let token = try await harness.login("pia", password: "pia-pia-pia")
            #expect(try await harness.request(.get, "/api/v1/auth/me", token: token).object?["patientID"] as? String == "patient-02")
        }
    }

    @Test("bad fields are 400 naming the field; duplicates and clashing links are 409")
    func validation() async throws {
        try await ServerHarness.run { harness in
            let ward = try await AdminWard.seed(in: harness)
            func create(_ json: String) async throws -> HarnessResponse {
                try await harness.request(.post, "/api/v1/users", token: ward.admin, raw: json)
            }
            let cases: [(String, String)] = [
                (#"{"username": "a1", "name": "A", "role": "nurse"}"#, "password"),
                (#"{"username": "a1", "name": "A", "role": "nurse", "password": "short"}"#, "password"),
                (#"{"username": "a1", "name": "A", "role": "janitor", "password": "long-enough-1"}"#, "role"),
                (#"{"username": "a1", "name": "A", "role": "device", "password": "long-enough-1"}"#, "role"),
                (#"{"username": "a 1", "name": "A", "role": "admin", "password": "long-enough-1"}"#, "username"),
                (#"{"username": "a1", "name": " ", "role": "admin", "password": "long-enough-1"}"#, "name"),
                (#"{"username": "a1", "name": "A", "role": "admin", "password": "long-enough-1", "email": "nope"}"#, "email"),
                (#"{"username": "a1", "name": "A", "role": "patient", "password": "long-enough-1"}"#, "patientID"),
                (#"{"username": "a1", "name": "A", "role": "patient", "password": "long-enough-1", "patientID": "ghost"}"#, "patientID"),
                (#"{"username": "a1", "name": "A", "role": "admin", "password": "long-enough-1", "staffID": "nurse1"}"#, "staffID"),
                (#"{"username": "a1", "name": "A", "role": "nurse", "password": "long-enough-1", "sectors": ["nowhere"]}"#, "sectors"),
            ]
            for (json, field) in cases {
                let response = try await create(json)
                #expect(response.status == .badRequest, "\(json)")
                #expect(response.errorMessage?.hasPrefix(field) == true, "\(json): \(response.errorMessage ?? "")")
            }
            #expect(try await harness.system.accounts.account(username: "a1") == nil)  // no account left without its worker

            let taken = try await create(#"{"username": "ADMIN", "name": "A", "role": "admin", "password": "long-enough-1"}"#)
            #expect(taken.status == .conflict && taken.errorCode == "conflict")
            let otherKind = try await create(#"{"username": "a2", "name": "A", "role": "doctor", "password": "long-enough-1", "staffID": "nurse2"}"#)
            #expect(otherKind.status == .conflict)
            let secondAccount = try await create(#"{"username": "a3", "name": "A", "role": "nurse", "password": "long-enough-1", "staffID": "nurse2"}"#)
            #expect(secondAccount.status == .conflict)

            #expect(try await harness.request(.get, "/api/v1/users/no-such-id", token: ward.admin).status == .notFound)
            #expect(try await harness.request(.get, "/api/v1/users?role=janitor", token: ward.admin).status == .badRequest)
            let admin = try #require(try await harness.system.accounts.account(username: "admin"))
            #expect(try await harness.request(.delete, "/api/v1/users/\(admin.id)", token: ward.admin).status == .conflict)
            #expect(try await harness.request(.put, "/api/v1/users/\(admin.id)", token: ward.admin, json: ["role": "nurse"]).status == .conflict)
            let password = try await harness.request(.put, "/api/v1/users/\(admin.id)", token: ward.admin, json: ["password": "new-password-1"])
            #expect(password.status == .badRequest && password.errorMessage?.hasPrefix("password") == true)
        }
    }
}
