/// A kind of work done in the company (iMobile's `Service`): infrastructure, back-end
/// development, prototyping, … Employees offer services; issues need one.
public struct Service: Hashable, Sendable, Codable {
    /// The service's name, unique in the company, e.g. `infrastructure`; the service
    /// type agents publish in the directory facilitator.
    public var name: String
    /// An overview of what the service is for.
    public var description: String

    /// Creates a service.
    public init(name: String, description: String) {
        self.name = name
        self.description = description
    }
}
