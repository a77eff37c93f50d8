import Foundation
import Testing
@testable import SADEServer

extension OpenAPIConformanceTests {
    /// The audit trail, a person's export and erasure (last: the erasure removes patient-02).
    static func privacy(_ log: inout AnswerLog, ward: AdminWard) async throws {
        try await log.call(.get, "/api/v1/patients?sector=", token: ward.nurse1)
        try await log.call(.get, "/api/v1/audit?limit=3", token: ward.admin)
        try await log.call(.get, "/api/v1/audit?actor=nurse1&action=read&patient=patient-01&since=2020-01-01T00:00:00Z", token: ward.admin)
        try await log.call(.get, "/api/v1/audit?action=peek", token: ward.admin)
        try await log.call(.get, "/api/v1/audit", token: ward.nurse1)
        try await log.call(.get, "/api/v1/audit/verification", token: ward.admin)
        try await log.call(.get, "/api/v1/audit/verification", token: ward.doctor1)
        let relatives = "/api/v1/patients/{id}/relatives"
        try await log.call(.get, relatives, "/api/v1/patients/patient-01/relatives", token: ward.patient)
        try await log.call(.get, relatives, "/api/v1/patients/patient-01/relatives", token: ward.relative)
        try await log.call(.put, relatives, "/api/v1/patients/patient-01/relatives", token: ward.patient, json: ["usernames": ["rel1"]])
        try await log.call(.put, relatives, "/api/v1/patients/patient-01/relatives", token: ward.admin, json: ["usernames": ["nurse1"]])
        try await log.call(.get, relatives, "/api/v1/patients/ghost/relatives", token: ward.admin)
        try await log.call(.get, "/api/v1/auth/me", token: ward.relative)
        try await log.call(.get, "/api/v1/patients", token: ward.relative)
        let export = "/api/v1/patients/{id}/export"
        try await log.call(.get, export, "/api/v1/patients/patient-01/export", token: ward.patient)
        try await log.call(.get, export, "/api/v1/patients/patient-01/export", token: ward.nurse1)
        try await log.call(.get, export, "/api/v1/patients/ghost/export", token: ward.admin)
        let erase = "/api/v1/patients/{id}"
        try await log.call(.delete, erase, "/api/v1/patients/patient-02", token: ward.nurse2)
        try await log.call(.delete, erase, "/api/v1/patients/patient-02", token: ward.admin)
        try await log.call(.delete, erase, "/api/v1/patients/patient-02", token: ward.admin)
    }
}
