import Foundation
import SADEIssueTrack

/// The company of iMobile's Figure 3: five services, six employees — Robert registers
/// issues, Tony and Maria offer infrastructure (Maria is busy with a critical issue due
/// tomorrow), Lucas works on a medium issue, and Julia and Pedro, the only ones offering
/// prototyping, are out of the office.
public enum IssueTrackScenario {
    /// The company's services.
    public static let services = [
        Service(name: "infrastructure", description: "Networks, servers and the office's machines"),
        Service(name: "back-end", description: "Back-end development"),
        Service(name: "front-end", description: "Front-end development"),
        Service(name: "prototyping", description: "Prototypes for clients"),
        Service(name: "user-experience", description: "User research and interaction design"),
    ]

    /// The six employees, by id.
    public static let employees = [
        employee("robert", "Robert Souza", "1980-03-14", ["user-experience"], "+55 21 99111-1234"),
        employee("tony", "Tony Almeida", "1985-07-02", ["infrastructure", "back-end"], "+55 21 99222-2468"),
        employee("maria", "Maria Costa", "1990-11-21", ["infrastructure"], "+55 21 99333-3702"),
        employee("lucas", "Lucas Lima", "1993-01-30", ["front-end"], "+55 21 99444-4936"),
        employee("julia", "Julia Rocha", "1988-05-09", ["prototyping", "user-experience"], "+55 21 99555-6170"),
        employee("pedro", "Pedro Alves", "1979-09-17", ["prototyping", "infrastructure"], "+55 21 99666-7404"),
    ]

    /// Who registers the story's issues.
    public static let reporter = "robert"
    /// The employees out of the office: no agent of theirs is connected.
    public static let outOfOffice: Set<String> = ["julia", "pedro"]
    /// The employees whose agents are connected, but the reporter's.
    public static var connectedColleagues: [String] {
        employees.map(\.id).filter { $0 != reporter && !outOfOffice.contains($0) }
    }

    /// Stores the company, its services and employees, and the work already in progress
    /// (Maria's critical issue due tomorrow, Lucas's medium one), with `now` as today.
    public static func seed(_ store: any CompanyStore, now: Date) async throws {
        try await store.setCompany(name: "Acme Software", description: "A software house whose employees' phones run IssueAgents")
        for service in services { try await store.save(service) }
        for employee in employees { try await store.save(employee) }
        let day: TimeInterval = 24 * 3600
        let busy = try await store.register(Issue(
            title: "Database server disk full", description: "Orders fail to save", priority: .critical,
            deadline: now.addingTimeInterval(day), service: "infrastructure", reporter: "robert"))
        try await store.assign(busy.id!, to: "maria")
        let layout = try await store.register(Issue(
            title: "Login page layout broken on tablets", description: "The button is cut off", priority: .medium,
            deadline: now.addingTimeInterval(3 * day), service: "front-end", reporter: "robert"))
        try await store.assign(layout.id!, to: "lucas")
    }

    /// The critical infrastructure issue due tomorrow that Robert registers (step 1 of Figure 3).
    public static func outage(now: Date) -> Issue {
        Issue(
            title: "Office network down", description: "The core switch does not answer; nobody can reach the servers",
            priority: .critical, deadline: now.addingTimeInterval(24 * 3600), service: "infrastructure")
    }

    /// A medium issue: registered, never offered.
    public static func typo(now: Date) -> Issue {
        Issue(
            title: "Typo on the pricing page", description: "'Enterprize' instead of 'Enterprise'", priority: .medium,
            deadline: now.addingTimeInterval(24 * 3600), service: "front-end")
    }

    /// A high issue due within two days for prototyping, whose providers are all away.
    public static func demoPrototype(now: Date) -> Issue {
        Issue(
            title: "Prototype for the client demo", description: "The client wants to click through the new checkout",
            priority: .high, deadline: now.addingTimeInterval(36 * 3600), service: "prototyping")
    }

    private static func employee(_ id: String, _ name: String, _ birth: String, _ services: [String], _ phone: String) -> Employee {
        let birthDate = (try? Date(birth + "T00:00:00Z", strategy: .iso8601)) ?? Date(timeIntervalSince1970: 0)
        return Employee(
            id: id, name: name, birthDate: birthDate, email: "\(id)@acme.example", phone: phone, services: services)
    }
}
