import Foundation
import Hummingbird
import SADEMonitoring

/// The thesis's role names: "Admin" for an admin, "User" for everyone else.
func wearableRole(of account: UserAccount) -> String { account.role == .admin ? "Admin" : "User" }

/// A user as `register` answers it: the thesis's `User` without its password.
struct WearableUserView: ResponseEncodable {
    let id: String
    let username: String
    let name: String
    let location: String?
    let projectId: Int
    let role: String

    init(_ account: UserAccount) {
        id = account.id
        username = account.username
        name = account.name
        location = account.location
        projectId = account.projectID
        role = wearableRole(of: account)
    }
}

/// The thesis's login view model: the token and what the devices display, without
/// the account's identifier or password.
struct WearableLoginView: ResponseEncodable {
    let username: String
    let name: String
    let location: String?
    let projectId: Int
    let role: String
    let token: String
    let expiresAt: Date

    init(_ account: UserAccount, token: String, expiresAt: Date) {
        username = account.username
        name = account.name
        location = account.location
        projectId = account.projectID
        role = wearableRole(of: account)
        self.token = token
        self.expiresAt = expiresAt
    }
}

/// A data item as the thesis's API shows it.
struct WearableDataItemView: ResponseEncodable {
    let id: Int64
    let userId: String
    let heartBpm: Double
    let gpsCoordinates: String?
    let steps: Int
    let distance: Double
    let temperature: Double
    let device: String?
    let sentDate: Date
    /// The owner's name, in `getProjectDataWithUser` only.
    let name: String?

    init(_ item: WearableDataItem, ownerName: String? = nil) {
        id = item.id
        userId = item.ownerID
        heartBpm = item.reading.heartBpm
        gpsCoordinates = item.reading.gpsCoordinates
        steps = item.reading.steps
        distance = item.reading.distance
        temperature = item.reading.temperature
        device = item.reading.device
        sentDate = item.sentDate
        name = ownerName
    }
}

/// A project as the thesis's API shows it.
struct WearableProjectView: ResponseEncodable {
    let id: Int
    let name: String
    let description: String?
    let adminId: String?
    let startTime: Date

    init(_ project: WearableProject) {
        id = project.id
        name = project.name
        description = project.description
        adminId = project.adminID
        startTime = project.startTime
    }
}
