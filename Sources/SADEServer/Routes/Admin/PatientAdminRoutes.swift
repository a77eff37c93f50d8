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
        api.post("patients") { request, context in
            _ = try context.requireAdmin()
            let input = try await request.decode(as: PatientInput.self, context: context)
            let patient = try input.newPatient()
            context.auditNote.note(patient: patient.id)
            if try await system.health.patient(patient.id) != nil { throw APIError.conflict("a patient \(patient.id) exists already") }
            try await system.health.save(patient)  // 400 naming `sector` when it is not registered
            return EditedResponse(status: .created, response: PatientView(patient))
        }

        api.put("patients/:id") { request, context in
            _ = try context.requireAdmin()
            var patient = try await existingPatient(context)
            let input = try await request.decode(as: PatientInput.self, context: context)
            if let id = input.id, id != patient.id.rawValue {
                throw APIError.invalid("id: a patient's identifier cannot change", code: "invalid-field")
            }
            if input.sector != nil || input.bed != nil {
                throw APIError.invalid(
                    "sector: a stay changes through POST /api/v1/patients/{id}/admit and /discharge", code: "invalid-field")
            }
            try input.apply(to: &patient)
            try await system.health.save(patient)
            return PatientView(patient)
        }

        api.post("patients/:id/admit") { request, context in
            _ = try context.requireAdmin()
            struct Stay: Decodable {
                let sector: String
                let bed: String?
            }
            let patient = try await existingPatient(context)
            let stay = try await request.decode(as: Stay.self, context: context)
            let sector = try AdminInput.identifier(stay.sector, field: "sector")
            let admitted = try await ClinicalAdministration(system: system).admit(patient.id, to: sector, bed: AdminInput.optionalText(stay.bed))
            guard let admitted else { throw APIError.notFound("no patient \(patient.id)") }
            return PatientView(admitted)
        }

        api.post("patients/:id/discharge") { _, context in
            _ = try context.requireAdmin()
            let patient = try await existingPatient(context)
            try await system.health.discharge(patient.id)
            return PatientView(try await existingPatient(context))
        }

        struct Thresholds: ResponseEncodable {
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

        api.get("patients/:id/thresholds") { _, context in
            let patient = try await readablePatient(context, record: true)
            return Thresholds(patient)
        }

        api.put("patients/:id/thresholds") { request, context in
            _ = try context.requireAdmin()
            var patient = try await existingPatient(context)
            let input = try await request.decode(as: [String: Threshold].self, context: context)
            patient.rangeOverrides = try Threshold.ranges(input)
            try await system.health.save(patient)
            return Thresholds(patient)
        }
    }
}
