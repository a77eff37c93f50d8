import Foundation
import Hummingbird
import SADEHealth
import SADEMonitoring

extension MonitoringServer {
    /// Hospitals and their sectors: any staff member reads them, an admin writes them.
    /// `GET`/`POST /hospitals`, `PUT /hospitals/{id}`, `GET /hospitals/{id}/sectors`,
    /// `GET`/`POST /sectors`, `GET`/`PUT /sectors/{id}` (name and the mailing list that
    /// is e-mailed when nobody on duty takes an alert).
    func addHospitalRoutes(to api: RouterGroup<MonitoringRequestContext>) {
        struct HospitalInput: Decodable {
            var id: String?
            var name: String?
            var address: String?
        }
        struct SectorInput: Decodable {
            var id: String?
            var hospital: String?
            var name: String?
            var mailingList: [String]?
        }

        api.get("hospitals") { _, context in
            _ = try context.requireStaff()
            return try await system.health.hospitals()
        }
        api.post("hospitals") { request, context in
            _ = try context.requireAdmin()
            let input = try await request.decode(as: HospitalInput.self, context: context)
            let hospital = Hospital(
                id: try AdminInput.identifier(input.id, field: "id"), name: try AdminInput.requiredText(input.name, field: "name"),
                address: AdminInput.optionalText(input.address))
            if try await system.health.hospitals().contains(where: { $0.id == hospital.id }) {
                throw APIError.conflict("a hospital \(hospital.id) exists already")
            }
            try await system.health.save(hospital)
            return EditedResponse(status: .created, response: hospital)
        }
        api.put("hospitals/:id") { request, context in
            _ = try context.requireAdmin()
            var hospital = try await registeredHospital(try context.pathParameter("id"))
            let input = try await request.decode(as: HospitalInput.self, context: context)
            if let id = input.id, id != hospital.id {
                throw APIError.invalid("id: a hospital's identifier cannot change", code: "invalid-field")
            }
            if let name = input.name { hospital.name = try AdminInput.requiredText(name, field: "name") }
            if let address = input.address { hospital.address = AdminInput.optionalText(address) }
            try await system.health.save(hospital)
            return hospital
        }
        api.get("hospitals/:id/sectors") { _, context in
            _ = try context.requireStaff()
            let hospital = try await registeredHospital(try context.pathParameter("id"))
            return try await system.health.sectors(of: hospital.id)
        }

        api.get("sectors") { _, context in
            _ = try context.requireStaff()
            return try await system.health.sectors(of: nil)
        }
        api.post("sectors") { request, context in
            _ = try context.requireAdmin()
            let input = try await request.decode(as: SectorInput.self, context: context)
            let sector = HospitalSector(
                id: try AdminInput.identifier(input.id, field: "id"),
                hospital: try AdminInput.identifier(input.hospital, field: "hospital"),
                name: try AdminInput.requiredText(input.name, field: "name"),
                mailingList: try AdminInput.emailAddresses(input.mailingList ?? [], field: "mailingList"))
            if try await system.health.sectors(of: nil).contains(where: { $0.id == sector.id }) {
                throw APIError.conflict("a sector \(sector.id) exists already")
            }
            try await system.health.save(sector)  // 400 naming `hospital` when it is not registered
            return EditedResponse(status: .created, response: sector)
        }
        api.get("sectors/:id") { _, context in
            _ = try context.requireStaff()
            return try await registeredSector(try context.pathParameter("id"))
        }
        api.put("sectors/:id") { request, context in
            _ = try context.requireAdmin()
            var sector = try await registeredSector(try context.pathParameter("id"))
            let input = try await request.decode(as: SectorInput.self, context: context)
            if let newID = input.id, newID != sector.id {
                throw APIError.invalid("id: a sector's identifier cannot change", code: "invalid-field")
            }
            if let hospital = input.hospital { sector.hospital = try AdminInput.identifier(hospital, field: "hospital") }
            if let name = input.name { sector.name = try AdminInput.requiredText(name, field: "name") }
            if let list = input.mailingList { sector.mailingList = try AdminInput.emailAddresses(list, field: "mailingList") }
            try await system.health.save(sector)
            return sector
        }
    }
}
