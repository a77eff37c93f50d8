import Foundation
import Hummingbird
import SADEHealth
import SADEMonitoring

extension MonitoringServer {
    /// The patients' administration, admin only: `POST /patients` (register, and admit
    /// when a sector is given), `PUT /patients/{id}` (details, respirator, SpO2 scale 2,
    /// thresholds), `POST /patients/{id}/admit` (admit, or move to another sector or
    /// bed), `POST /patients/{id}/discharge`, and the thresholds alone:
    /// `GET /patients/{id}/thresholds` (whoever may read the patient) and
    /// `PUT /patients/{id}/thresholds`.
    func addPatientAdminRoutes(to api: RouterGroup<MonitoringRequestContext>) {
        api.post("patients") { request, context -> Response in
            _ = try context.requireAdmin()
            let input = try await JSONBody.decode(PatientInput.self, from: request, limit: configuration.maxBodyBytes)
            let patient = try input.newPatient()
            if try await system.health.patient(patient.id) != nil { throw APIError.conflict("a patient \(patient.id) exists already") }
            try await system.health.save(patient)  // 400 naming `sector` when it is not registered
            return try JSONBody.response(PatientView(patient), status: .created)
        }

        api.put("patients/:id") { request, context -> Response in
            _ = try context.requireAdmin()
            var patient = try await existingPatient(context)
            let input = try await JSONBody.decode(PatientInput.self, from: request, limit: configuration.maxBodyBytes)
            if let id = input.id, id != patient.id.rawValue {
                throw APIError.invalid("id: a patient's identifier cannot change", code: "invalid-field")
            }
            if input.sector != nil || input.bed != nil {
                throw APIError.invalid(
                    "sector: a stay changes through POST /api/v1/patients/{id}/admit and /discharge", code: "invalid-field")
            }
            try input.apply(to: &patient)
            try await system.health.save(patient)
            return try JSONBody.response(PatientView(patient))
        }

        api.post("patients/:id/admit") { request, context -> Response in
            _ = try context.requireAdmin()
            struct Stay: Decodable {
                let sector: String
                let bed: String?
            }
            let patient = try await existingPatient(context)
            let stay = try await JSONBody.decode(Stay.self, from: request, limit: configuration.maxBodyBytes)
            let sector = try AdminInput.identifier(stay.sector, field: "sector")
            guard try await system.health.sectors(of: nil).contains(where: { $0.id == sector }) else {
                throw APIError.invalid("sector: no sector '\(sector)' is registered", code: "invalid-field")
            }
            try await system.health.admit(patient.id, to: sector, bed: AdminInput.optionalText(stay.bed))
            return try JSONBody.response(PatientView(try await existingPatient(context)))
        }

        api.post("patients/:id/discharge") { _, context -> Response in
            _ = try context.requireAdmin()
            let patient = try await existingPatient(context)
            try await system.health.discharge(patient.id)
            return try JSONBody.response(PatientView(try await existingPatient(context)))
        }

        struct Thresholds: Encodable {
            let patient: PatientID
            /// The patient's own ranges.
            let overrides: [String: Threshold]
            /// What the patient is judged by: their own ranges, else the standard ones.
            let effective: [String: Threshold]

            init(_ patient: Patient) {
                self.patient = patient.id
                overrides = Threshold.view(of: patient.rangeOverrides)
                effective = Threshold.effective(for: patient)
            }
        }

        api.get("patients/:id/thresholds") { _, context -> Response in
            let patient = try await readablePatient(context)
            return try JSONBody.response(Thresholds(patient))
        }

        api.put("patients/:id/thresholds") { request, context -> Response in
            _ = try context.requireAdmin()
            var patient = try await existingPatient(context)
            let input = try await JSONBody.decode([String: Threshold].self, from: request, limit: configuration.maxBodyBytes)
            patient.rangeOverrides = try Threshold.ranges(input)
            try await system.health.save(patient)
            return try JSONBody.response(Thresholds(patient))
        }
    }
}
