import Foundation
import Hummingbird
import SADEHealth
import SADEMonitoring

/// A relative linked to a patient, as the API shows them.
struct RelativeView: ResponseCodable, Sendable {
    let username: String
    let name: String

    init(_ account: UserAccount) {
        username = account.username
        name = account.name
    }
}

/// The body of `PUT /patients/{id}/relatives`: every relative's username.
struct RelativesInput: Decodable {
    var usernames: [String]
}

extension MonitoringServer {
    /// `GET|PUT /patients/{id}/relatives`: the relatives linked to a patient (SADE4Health's
    /// improvement #2, H.O.M.E.R.'s carers), read by an admin or by the patient themself. A
    /// relative reads the patient's latest vital signs and alerts and their flat, read only,
    /// and gets the flat's alarms. The accounts are made by an admin (role `relative`); a PUT
    /// names them all, replacing the links: an admin links and unlinks anyone, the patient
    /// only withdraws links (anyone may register a wearable patient's account: letting it
    /// link would let a stranger probe for relatives' names and fill their pages).
    func addPatientRelativeRoutes(to api: RouterGroup<MonitoringRequestContext>) {
        api.get("patients/:id/relatives") { _, context in
            let patient = try await patientWhoseRelativesAreAsked(context)
            return try await UserAdministration(system: system).relatives(of: patient.id).map(RelativeView.init)
        }

        api.put("patients/:id/relatives") { request, context in
            let patient = try await patientWhoseRelativesAreAsked(context)
            let input = try await request.decode(as: RelativesInput.self, context: context)
            guard input.usernames.count <= UserAdministration.mostRelativeLinks else {
                throw APIError.invalid("usernames: at most \(UserAdministration.mostRelativeLinks)", code: "invalid-field")
            }
            for username in input.usernames {
                guard (1...64).contains(username.count), !username.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                    throw APIError.invalid("usernames: each is 1–64 characters, no control characters", code: "invalid-field")
                }
            }
            let administration = UserAdministration(system: system)
            let linked = try await administration.relatives(of: patient.id)
            let current = Set(linked.map(\.username))
            // Every one checked before anything changes: all or nothing.
            var wanted: [String: UserAccount] = [:]
            if try context.requireCaller().role != .admin {
                let byName = Dictionary(linked.map { ($0.username.lowercased(), $0) }) { first, _ in first }
                for username in input.usernames {
                    guard let account = byName[username.lowercased()] else {
                        throw APIError.forbidden("a patient withdraws their relatives' links; an admin makes new ones")
                    }
                    wanted[account.username] = account
                }
            } else {
                for username in input.usernames {
                    guard let account = try await system.accounts.account(username: username), account.role == .relative else {
                        throw APIError.invalid("usernames: \(username.prefix(64)) is not a relative's account", code: "invalid-field")
                    }
                    wanted[account.username] = account
                }
            }
            for username in current.subtracting(wanted.keys).sorted() { try await administration.link(relative: username, to: patient.id, false) }
            for username in Set(wanted.keys).subtracting(current).sorted() { try await administration.link(relative: username, to: patient.id, true) }
            context.auditNote.note(
                action: .accessChange, patient: patient.id, detail: "relatives: \(wanted.keys.sorted().joined(separator: ", "))")
            return try await administration.relatives(of: patient.id).map(RelativeView.init)
        }
    }

    /// The patient of the path, if the caller is an admin or that patient (403 otherwise).
    private func patientWhoseRelativesAreAsked(_ context: MonitoringRequestContext) async throws -> Patient {
        let caller = try context.requireCaller()
        let patient = try await existingPatient(context)
        guard caller.role == .admin || (caller.role == .patient && caller.patientID == patient.id) else {
            throw APIError.forbidden("only an admin or the patient themself links their relatives")
        }
        return patient
    }
}
