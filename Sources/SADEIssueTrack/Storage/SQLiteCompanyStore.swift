import Foundation
import GRDB

/// The company's data on SQLite, in `<directory>/issuetrack.sqlite` or in memory.
///
/// Safe to share: every call is one transaction on GRDB's pool (several readers, one writer).
public struct SQLiteCompanyStore: CompanyStore {
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

    public func setCompany(name: String, description: String) async throws(IssueTrackError) {
        try write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO company (id, name, description) VALUES (1, ?, ?)", arguments: [name, description])
        }
    }

    public func company() async throws(IssueTrackError) -> Company {
        try read { db in
            let row = try Row.fetchOne(db, sql: "SELECT name, description FROM company WHERE id = 1")
            return Company(
                name: row?["name"] ?? "", description: row?["description"] ?? "",
                services: try Service.order(Column("name")).fetchAll(db),
                issues: try Issue.order(Column("id")).fetchAll(db),
                employees: try Self.employees(in: db, offering: nil))
        }
    }

    public func save(_ service: Service) async throws(IssueTrackError) {
        try write { db in try service.save(db) }
    }

    public func save(_ employee: Employee) async throws(IssueTrackError) {
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

    public func employee(_ id: String) async throws(IssueTrackError) -> Employee? {
        try read { db in try Self.employees(in: db, offering: nil).first { $0.id == id } }
    }

    public func employees(offering service: String) async throws(IssueTrackError) -> [Employee] {
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

extension SQLiteCompanyStore {
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
