import Foundation
import SADEMonitoring

/// `{"username", "password"}` of a login (the thesis binds its `User` model).
struct WearableCredentials: Decodable {
    let username: String
    let password: String

    init(from decoder: any Decoder) throws {
        let object = try WearableJSONObject(from: decoder)
        username = try object.requiredString("username")
        password = try object.requiredString("password")
    }
}

/// The `User` a client registers: username and password, optionally name and location.
/// A role or project in the body is ignored: users register as "User" in "No Project".
struct WearableRegistration: Decodable {
    let username: String
    let password: String
    let name: String?
    let location: String?

    init(from decoder: any Decoder) throws {
        let object = try WearableJSONObject(from: decoder)
        username = try object.requiredString("username")
        password = try object.requiredString("password")
        name = try object.string("name")
        location = try object.string("location")
    }
}

/// A data item as a watch or an ESP32 posts it; `id`, `sentDate` and the owner, if
/// sent, are ignored: the server sets them.
struct WearableDataItemInput: Decodable {
    let reading: WearableReading

    init(from decoder: any Decoder) throws {
        let object = try WearableJSONObject(from: decoder)
        reading = WearableReading(
            heartBpm: try object.number("heartBpm") ?? 0, gpsCoordinates: try object.string("gpsCoordinates"),
            steps: try object.integer("steps") ?? 0, distance: try object.number("distance") ?? 0,
            temperature: try object.number("temperature") ?? 0, device: try object.string("device"))
    }
}

/// A new project: a name and an optional description.
struct WearableProjectInput: Decodable {
    let name: String
    let description: String?

    init(from decoder: any Decoder) throws {
        let object = try WearableJSONObject(from: decoder)
        name = try object.requiredString("name")
        description = try object.string("description")
    }
}

/// Who goes to which project (the admin panel's "Assign user to a project" form).
struct WearableProjectAssignment: Decodable {
    let username: String
    let projectID: Int

    init(from decoder: any Decoder) throws {
        let object = try WearableJSONObject(from: decoder)
        username = try object.requiredString("username")
        guard let projectID = try object.integer("projectId") else {
            throw DecodingError.keyNotFound(WearableJSONObject.Key(stringValue: "projectId"), .init(codingPath: [], debugDescription: "missing"))
        }
        self.projectID = projectID
    }
}
