import Foundation
import SADEHealth
import SADEMonitoring

/// What the wearable tests do often: register and log in through the thesis's routes,
/// post a device's raw body, read a patient's samples.
extension ServerHarness {
    /// Registers a thesis user through `POST /Api/User/register` and returns the answer.
    @discardableResult
    func registerWearable(_ username: String, name: String? = nil, location: String? = "Cluj-Napoca") async throws -> HarnessResponse {
        var body = ["username": username, "password": Self.password]
        if let name { body["name"] = name }
        if let location { body["location"] = location }
        return try await request(.post, "/Api/User/register", json: body)
    }

    /// Logs in through `POST /Api/User/login` and returns the bearer token.
    func wearableLogin(_ username: String) async throws -> String {
        let response = try await request(.post, "/Api/User/login", json: ["username": username, "password": Self.password])
        guard response.status == .ok, let token = response.object?["token"] as? String else {
            throw HarnessError.loginFailed(username, response.status.code, response.text)
        }
        return token
    }

    /// Registers and logs in a thesis user; returns the token.
    func wearableUser(_ username: String) async throws -> String {
        try await registerWearable(username)
        return try await wearableLogin(username)
    }

    /// Posts a device's body, byte for byte, to `POST /Api/DataItem`.
    func postDataItem(_ body: Data, token: String?, path: String = "/Api/DataItem") async throws -> HarnessResponse {
        try await request(.post, path, token: token, raw: String(decoding: body, as: UTF8.self))
    }

    /// The samples of `type` in `patient`'s record, oldest first.
    func samples(_ type: QuantityType, of patient: PatientID) async throws -> [HealthSample] {
        try await system.health.samples(SampleQuery(.quantity(type), patient: patient), as: .system)
    }
}
