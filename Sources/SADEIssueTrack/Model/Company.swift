/// Everything the app knows about the company (iMobile's `Company`, a singleton there,
/// a value read from the ``CompanyStore`` here).
public struct Company: Hashable, Sendable, Codable {
    /// The company's name.
    public var name: String
    /// What the company does.
    public var description: String
    /// The services performed in the company, by name.
    public var services: [Service]
    /// Every registered issue, by number.
    public var issues: [Issue]
    /// The employees using the app, by id.
    public var employees: [Employee]

    /// Creates a company.
    public init(name: String, description: String, services: [Service] = [], issues: [Issue] = [], employees: [Employee] = []) {
        self.name = name
        self.description = description
        self.services = services
        self.issues = issues
        self.employees = employees
    }

    /// The employees offering `service`, by id.
    public func employees(offering service: String) -> [Employee] {
        employees.filter { $0.services.contains(service) }
    }
}
