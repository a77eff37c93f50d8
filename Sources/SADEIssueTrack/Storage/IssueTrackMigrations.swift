import Foundation
import GRDB

/// The schema of the issue track: the company, its services, employees and the services
/// each offers, and issues. Evolves only through named migrations.
enum IssueTrackMigrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("issue-track-v1") { db in
            try db.create(table: "company") { table in
                table.primaryKey("id", .integer).check { $0 == 1 }  // one row: this company
                table.column("name", .text).notNull()
                table.column("description", .text).notNull()
            }
            try db.create(table: "service") { table in
                table.primaryKey("name", .text)
                table.column("description", .text).notNull()
            }
            try db.create(table: "employee") { table in
                table.primaryKey("id", .text)
                table.column("name", .text).notNull()
                table.column("birthDate", .datetime).notNull()
                table.column("email", .text).notNull()
                table.column("phone", .text).notNull()
            }
            try db.create(table: "employeeService") { table in
                table.column("employeeID", .text).notNull().references("employee", onDelete: .cascade)
                table.column("serviceName", .text).notNull().references("service", onDelete: .cascade).indexed()
                table.primaryKey(["employeeID", "serviceName"])
            }
            try db.create(table: "issue") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("title", .text).notNull()
                table.column("description", .text).notNull()
                table.column("priority", .text).notNull()
                table.column("deadline", .datetime).notNull()
                table.column("service", .text).notNull().references("service")
                table.column("status", .text).notNull().indexed()
                table.column("assignee", .text).references("employee").indexed()
                table.column("reporter", .text).references("employee")
                table.column("resolutionNote", .text)
            }
        }
        // Whether each employee is connected to the company network ("out of the office"
        // when not), kept across restarts by the server's issue-track office.
        migrator.registerMigration("issue-track-v2-presence") { db in
            try db.create(table: "presence") { table in
                table.primaryKey("employeeID", .text).references("employee", onDelete: .cascade)
                table.column("connected", .boolean).notNull()
            }
        }
        // How each issue's last round went (``RoundState`` as JSON), so that any node and a
        // restarted server tell it.
        migrator.registerMigration("issue-track-v3-rounds") { db in
            try db.create(table: "issueRound") { table in
                table.primaryKey("issueID", .integer).references("issue", onDelete: .cascade)
                table.column("state", .text).notNull()
            }
        }
        return migrator
    }
}

extension Service: FetchableRecord, PersistableRecord {}

extension Issue: FetchableRecord, MutablePersistableRecord {
    /// Takes the number SQLite gave the new issue.
    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

/// A row of `employee`: an ``Employee`` without the services, which live in `employeeService`.
struct EmployeeRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "employee"
    var id: String
    var name: String
    var birthDate: Date
    var email: String
    var phone: String
}

/// A row of `employeeService`: one service an employee offers.
struct EmployeeServiceRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "employeeService"
    var employeeID: String
    var serviceName: String
}
