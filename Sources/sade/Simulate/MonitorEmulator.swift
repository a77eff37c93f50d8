import Foundation
import SADEHealth
import SADEMonitoring

/// A bedside monitor posting a patient's vital signs to `/api/v1/patients/{id}/observations`
/// with its own device token.
struct MonitorEmulator: Sendable {
    let patient: PatientID
    let deviceToken: String
    let tokenID: String
    let simulator: VitalSignSimulator

    /// Logs in as `username` (an admin), admits `count` new patients of this run to the
    /// first sector — so no demo monitor writes for them too — and issues each a device token.
    static func prepare(
        _ http: SimulatorHTTP, username: String, password: String, count: Int, scenario: SimulateCommand.Scenario, seed: UInt64,
        start: Date, duration: TimeInterval, run: String
    ) async throws -> [MonitorEmulator] {
        let token = try await login(http, username: username, password: password)
        let sectors = try await http.send(.GET, "/api/v1/sectors", token: token)
        guard sectors.isSuccess, let sector = (sectors.json as? [[String: Any]])?.first?["id"] as? String else {
            throw SimulationError("cannot find a sector to admit the simulated patients to: \(sectors.status) \(sectors.errorMessage)")
        }
        var emulators: [MonitorEmulator] = []
        for index in 0..<count {
            let id = "sim-\(run)-\(index + 1)"
            let created = try await http.send(
                .POST, "/api/v1/patients", token: token,
                json: ["id": id, "name": "Simulated patient \(index + 1)", "sector": sector, "bed": "S-\(index + 1)"])
            guard created.isSuccess else { throw SimulationError("cannot admit \(id): \(created.status) \(created.errorMessage)") }
            let issued = try await http.send(.POST, "/api/v1/patients/\(id)/devices", token: token, json: ["label": "simulated monitor \(index + 1)"])
            guard issued.isSuccess, let answer = issued.json as? [String: Any], let secret = answer["secret"] as? String,
                let tokenID = (answer["token"] as? [String: Any])?["id"] as? String
            else {
                throw SimulationError("cannot issue a device token for \(id): \(issued.status) \(issued.errorMessage)")
            }
            let simulator = VitalSignSimulator(
                patient: PatientID(id), profile: scenario.profile(forDevice: index), seed: seed &+ UInt64(index), start: start,
                device: "sim-monitor-\(index + 1)",
                configuration: .init(
                    deteriorationDelay: duration * 0.1, deteriorationSpan: duration * 0.4, dropoutCycle: duration / 2, silentFor: duration / 6))
            emulators.append(MonitorEmulator(patient: PatientID(id), deviceToken: secret, tokenID: tokenID, simulator: simulator))
        }
        return emulators
    }

    /// Revokes the device token, as the run is over.
    func revoke(via http: SimulatorHTTP, adminToken: String) async throws {
        _ = try await http.send(.DELETE, "/api/v1/patients/\(patient.rawValue)/devices/\(tokenID)", token: adminToken)
    }

    static func login(_ http: SimulatorHTTP, username: String, password: String) async throws -> String {
        let answer = try await http.send(.POST, "/api/v1/auth/login", json: ["username": username, "password": password])
        guard answer.isSuccess, let token = (answer.json as? [String: Any])?["token"] as? String else {
            throw SimulationError("cannot log in as \(username): \(answer.status) \(answer.errorMessage)")
        }
        return token
    }

    /// Posts the readings of `date`; `nil` while the device is silent.
    func post(at date: Date, via http: SimulatorHTTP) async throws -> SimulatorHTTP.Answer? {
        guard let signs = simulator.vitalSigns(at: date) else { return nil }
        let start = date.formatted(.iso8601)
        func observation(_ type: String, _ value: Double) -> [String: Any] {
            ["type": type, "value": (value * 10).rounded() / 10, "start": start, "device": simulator.device]
        }
        let body: [[String: Any]] = [
            observation("heartRate", signs.heartRate), observation("oxygenSaturation", signs.oxygenSaturation),
            observation("respiratoryRate", signs.respiratoryRate), observation("bodyTemperature", signs.bodyTemperature),
            observation("bloodPressureSystolic", signs.systolicBloodPressure),
            observation("bloodPressureDiastolic", signs.diastolicBloodPressure),
            observation("consciousnessLevel", Double(signs.consciousness.rawValue)),
            observation("supplementalOxygen", signs.onSupplementalOxygen ? 1 : 0),
        ]
        return try await http.send(.POST, "/api/v1/patients/\(patient.rawValue)/observations", token: deviceToken, json: body)
    }
}
