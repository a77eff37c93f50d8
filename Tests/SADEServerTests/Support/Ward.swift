import Foundation
import SADEHealth
import SADEMonitoring

/// A small hospital for access tests: sectors `ward-a` and `ward-b`, nurse `nurse-a`
/// and doctor `doctor-a` in ward A, nurse `nurse-b` in ward B, patients `p-a` (ward A)
/// and `p-b` (ward B), the account `patient-a` for `p-a` and a device token for `p-a`.
struct Ward {
    let deviceSecret: String

    static func seed(_ harness: ServerHarness) async throws -> Ward {
        let health = harness.system.health
        try await health.save(Hospital(id: "h", name: "Hospital"))
        try await health.save(HospitalSector(id: "ward-a", hospital: "h", name: "Ward A", mailingList: ["a@example.org"]))
        try await health.save(HospitalSector(id: "ward-b", hospital: "h", name: "Ward B"))
        try await health.save(HealthCareWorker.nurse(id: "nurse-a", name: "Nurse A", sectors: ["ward-a"]))
        try await health.save(HealthCareWorker.doctor(id: "doctor-a", name: "Doctor A", sectors: ["ward-a"]))
        try await health.save(HealthCareWorker.nurse(id: "nurse-b", name: "Nurse B", sectors: ["ward-b"]))
        try await health.save(Patient(id: "p-a", name: "Alice", sector: "ward-a", bed: "1"))
        try await health.save(Patient(id: "p-b", name: "Bob", sector: "ward-b", bed: "2"))
        try await harness.createAccount("nurse-a", role: .nurse, staffID: "nurse-a")
        try await harness.createAccount("doctor-a", role: .doctor, staffID: "doctor-a")
        try await harness.createAccount("nurse-b", role: .nurse, staffID: "nurse-b")
        try await harness.createAccount("patient-a", role: .patient, patientID: "p-a")
        let (_, secret) = try await harness.system.devices.issue(for: "p-a", label: "monitor A")
        return Ward(deviceSecret: secret)
    }
}

/// An observation body.
struct Observation: Encodable, Sendable {
    var type: String
    var value: Double
    var unit: String?
    var start: String
    var device: String?

    init(_ type: String, _ value: Double, unit: String? = nil, at start: Date, device: String? = nil) {
        self.type = type
        self.value = value
        self.unit = unit
        self.start = start.formatted(.iso8601)
        self.device = device
    }
}
