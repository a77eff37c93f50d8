import Foundation

/// A study or group that wearable users belong to (the thesis's `Project`): every
/// account is in exactly one, by default ``noProjectID`` ("No Project").
public struct WearableProject: Hashable, Sendable, Codable, Identifiable {
    /// The project every account starts in; it always exists.
    public static let noProjectID = 0

    /// Unique; 0 is "No Project", created ones count up from 1.
    public var id: Int
    /// What the project is called.
    public var name: String
    /// What the project is about.
    public var description: String?
    /// The account of the administrator who created it (`nil` for "No Project").
    public var adminID: String?
    /// When it was created.
    public var startTime: Date

    /// Creates a project value.
    public init(id: Int, name: String, description: String? = nil, adminID: String? = nil, startTime: Date) {
        self.id = id
        self.name = name
        self.description = description
        self.adminID = adminID
        self.startTime = startTime
    }
}
