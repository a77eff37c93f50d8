import Foundation
import HTTPTypes
import Testing
import SADEHealth
import SADEMonitoring

/// A small hospital for the administration and FHIR tests: sectors `covid-ward` and
/// `icu`; `nurse1` and `doctor1` in the COVID ward, `nurse2` in the ICU; `patient-01`
/// admitted to the COVID ward with a patient account `pat1`; `patient-02` in the ICU;
/// a device token for `patient-01`. Holds a bearer token for each caller.
struct AdminWard: Sendable {
    let admin: String
    let nurse1: String
    let nurse2: String
    let doctor1: String
    let patient: String
    let device: String
    /// `rel1`, a relative of patient-01 (Paul).
    let relative: String

    /// Every token that is not an admin's, with a name for failure messages.
    var nonAdmins: [(String, String)] {
        [("nurse", nurse1), ("doctor", doctor1), ("patient", patient), ("device", device), ("relative", relative)]
    }

    /// Seeds the hospital in `harness` and logs everyone in.
    static func seed(in harness: ServerHarness) async throws -> AdminWard {
        let health = harness.system.health
        try await health.save(Hospital(id: "h1", name: "General"))
        try await health.save(HospitalSector(id: "covid-ward", hospital: "h1", name: "COVID ward"))
        try await health.save(HospitalSector(id: "icu", hospital: "h1", name: "ICU"))
        try await health.save(HealthCareWorker.nurse(id: "nurse1", name: "Nina", sectors: ["covid-ward"]))
        try await health.save(HealthCareWorker.nurse(id: "nurse2", name: "Noor", sectors: ["icu"]))
        try await health.save(HealthCareWorker.doctor(id: "doctor1", name: "Dora", sectors: ["covid-ward"]))
        try await health.save(Patient(id: "patient-01", name: "Paul", sector: "covid-ward", bed: "3"))
        try await health.save(Patient(id: "patient-02", name: "Pia", sector: "icu", bed: "1"))
        try await harness.createAccount("nurse1", role: .nurse, staffID: "nurse1")
        try await harness.createAccount("nurse2", role: .nurse, staffID: "nurse2")
        try await harness.createAccount("doctor1", role: .doctor, staffID: "doctor1")
        try await harness.createAccount("pat1", role: .patient, patientID: "patient-01")
        let device = try await harness.system.devices.issue(for: "patient-01", label: "monitor 1").secret
        try await harness.system.accounts.create(
            UserAccount(username: "rel1", name: "Rita Relative", role: .relative, relativeOf: ["patient-01"]), password: ServerHarness.password)
        try await harness.system.staffChanged()
        return AdminWard(
            admin: try await harness.login("admin"), nurse1: try await harness.login("nurse1"), nurse2: try await harness.login("nurse2"),
            doctor1: try await harness.login("doctor1"), patient: try await harness.login("pat1"), device: device,
            relative: try await harness.login("rel1"))
    }
}

extension HarnessResponse {
    /// The `id` of the JSON object answered.
    var id: String? { object?["id"] as? String }
}

extension AdminWard {
    /// Expects `method path` to answer 401 without a token and 403 to every other role.
    func expectAdminOnly(
        _ harness: ServerHarness, _ method: HTTPRequest.Method, _ path: String, json: (any Encodable & Sendable)? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let anonymous = try await harness.request(method, path, json: json)
        #expect(anonymous.status == .unauthorized, "anonymous \(method) \(path)", sourceLocation: sourceLocation)
        for (who, token) in nonAdmins {
            let response = try await harness.request(method, path, token: token, json: json)
            #expect(response.status == .forbidden, "\(who) \(method) \(path): \(response.status)", sourceLocation: sourceLocation)
            #expect(response.errorCode == "forbidden", sourceLocation: sourceLocation)
        }
    }
}
