import Foundation
import SADEHealth
import SADEMonitoring

/// A bedside monitor posting a patient's vital signs to `/api/v1/patients/{id}/observations`
/// with its own device token.
struct MonitorEmulator: Sendable {
    let patient: PatientID
    let deviceToken: String
    let simulator: VitalSignSimulator

    /// Logs in as `username`, takes the first `count` patients the account sees and
    /// issues each a device token.
    static func prepare(
        _ http: SimulatorHTTP, username: String, password: String, count: Int, scenario: SimulateCommand.Scenario, seed: UInt64,
        start: Date, duration: TimeInterval
    ) async throws -> [MonitorEmulator] {
        let token = try await login(http, username: username, password: password)
        let list = try await http.send(.GET, "/api/v1/patients", token: token)
        guard list.isSuccess, let rows = list.json as? [[String: Any]] else {
            throw SimulationError("cannot list patients: \(list.status) \(list.errorMessage)")
        }
        let patients = rows.compactMap { $0["patient"] as? [String: Any] }
        guard patients.count >= count else {
            throw SimulationError("\(username) sees \(patients.count) patients, fewer than --patients \(count)")
        }
        var emulators: [MonitorEmulator] = []
        for (index, patient) in patients.prefix(count).enumerated() {
            guard let id = patient["id"] as? String else { continue }
            let issued = try await http.send(.POST, "/api/v1/patients/\(id)/devices", token: token, json: ["label": "simulated monitor \(index + 1)"])
            guard issued.isSuccess, let secret = (issued.json as? [String: Any])?["secret"] as? String else {
                throw SimulationError("cannot issue a device token for \(id): \(issued.status) \(issued.errorMessage)")
            }
            let onRespirator = (patient["attributes"] as? [String: String])?["onRespirator"] == "true"
            let simulator = VitalSignSimulator(
                patient: PatientID(id), profile: scenario.profile(forDevice: index), seed: seed &+ UInt64(index),
                onRespirator: onRespirator, start: start, device: "sim-monitor-\(index + 1)",
                configuration: .init(
                    deteriorationDelay: duration * 0.1, deteriorationSpan: duration * 0.4, dropoutCycle: duration / 2, silentFor: duration / 6))
            emulators.append(MonitorEmulator(patient: PatientID(id), deviceToken: secret, simulator: simulator))
        }
        return emulators
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
