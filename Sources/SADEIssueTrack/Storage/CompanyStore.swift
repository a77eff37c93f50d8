import Foundation
import GRDB

/// The company's data on SQLite (iMobile's `DAO`): the company, services, employees and
/// issues, in `<directory>/issuetrack.sqlite` or in memory.
///
/// Safe to share: every call is one transaction on GRDB's pool (several readers, one writer).
public struct CompanyStore: Sendable {
    /// The file name inside the data directory.
    public static let fileName = "issuetrack.sqlite"

    let writer: any DatabaseWriter

    /// Opens (creating and migrating if needed) the database in `directory`, in WAL mode,
    /// or an in-memory database when `directory` is `nil`.
    public init(directory: String?) throws(IssueTrackError) {
        do {
            if let directory {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                var configuration = Configuration()
                configuration.busyMode = .timeout(5)  // an employee process may read while the company writes
                writer = try DatabasePool(path: (directory as NSString).appendingPathComponent(Self.fileName), configuration: configuration)
            } else {
                writer = try DatabaseQueue()
            }
            try IssueTrackMigrations.migrator.migrate(writer)
        } catch {
            throw .storage("cannot open: \(error)")
        }
    }

    // MARK: Company, services, employees

    /// Sets the company's name and description.
    public func setCompany(name: String, description: String) throws(IssueTrackError) {
        try write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO company (id, name, description) VALUES (1, ?, ?)", arguments: [name, description])
        }
    }

    /// Everything about the company: name, services, employees and issues.
    public func company() throws(IssueTrackError) -> Company {
        try read { db in
            let row = try Row.fetchOne(db, sql: "SELECT name, description FROM company WHERE id = 1")
            return Company(
                name: row?["name"] ?? "", description: row?["description"] ?? "",
                services: try Service.order(Column("name")).fetchAll(db),
                issues: try Issue.order(Column("id")).fetchAll(db),
                employees: try Self.employees(in: db, offering: nil))
        }
    }

    /// Adds a service, or updates its description.
    public func save(_ service: Service) throws(IssueTrackError) {
        try write { db in try service.save(db) }
    }

    /// Adds an employee, or replaces their data and services.
    ///
    /// - Throws: ``IssueTrackError/invalidEmployeeID(_:)``, ``IssueTrackError/unknownService(_:)``.
    public func save(_ employee: Employee) throws(IssueTrackError) {
        guard Employee.isValidID(employee.id) else { throw .invalidEmployeeID(employee.id) }
        try write { db in
            for name in employee.services where try Service.fetchOne(db, key: name) == nil {
                throw IssueTrackError.unknownService(name)
            }
            try EmployeeRow(id: employee.id, name: employee.name, birthDate: employee.birthDate, email: employee.email, phone: employee.phone)
                .save(db)
            try EmployeeServiceRow.filter(Column("employeeID") == employee.id).deleteAll(db)
            for name in Set(employee.services) { try EmployeeServiceRow(employeeID: employee.id, serviceName: name).insert(db) }
        }
    }

    /// The employee with this id, if any.
    public func employee(_ id: String) throws(IssueTrackError) -> Employee? {
        try read { db in try Self.employees(in: db, offering: nil).first { $0.id == id } }
    }

    /// Every employee offering `service`, by id (the e-mail fallback's recipients).
    public func employees(offering service: String) throws(IssueTrackError) -> [Employee] {
        try read { db in try Self.employees(in: db, offering: service) }
    }

    private static func employees(in db: Database, offering service: String?) throws -> [Employee] {
        var offered: [String: [String]] = [:]
        for row in try EmployeeServiceRow.order(Column("serviceName")).fetchAll(db) { offered[row.employeeID, default: []].append(row.serviceName) }
        return try EmployeeRow.order(Column("id")).fetchAll(db).compactMap { row in
            let services = offered[row.id] ?? []
            if let service, !services.contains(service) { return nil }
            return Employee(id: row.id, name: row.name, birthDate: row.birthDate, email: row.email, phone: row.phone, services: services)
        }
    }
}

extension CompanyStore {
    func read<T>(_ body: @Sendable (Database) throws -> T) throws(IssueTrackError) -> T {
        try mappingErrors { try writer.read(body) }
    }

    func write<T>(_ body: @Sendable (Database) throws -> T) throws(IssueTrackError) -> T {
        try mappingErrors { try writer.write(body) }
    }

    /// `access`'s result; its ``IssueTrackError``s as they are, anything else (SQLite's) as `storage`.
    private func mappingErrors<T>(_ access: () throws -> T) throws(IssueTrackError) -> T {
        do {
            return try access()
        } catch let error as IssueTrackError {
            throw error
        } catch {
            throw .storage("\(error)")
        }
    }
}
