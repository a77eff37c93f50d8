import Foundation
import GRDB
import SADEHealth

/// ``AccessGrant``s in the `access_grant` table; types and patients as sorted JSON
/// arrays of identifiers, NULL meaning "all".
enum AccessGrantRows {
    /// Adds `grant` unless an equal one is there.
    static func insert(_ grant: AccessGrant, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT OR IGNORE INTO access_grant (principal_kind, principal_name, access, types, patients)
                VALUES (?, ?, ?, ?, ?)
                """,
            arguments: [
                grant.principal.kind.rawValue, grant.principal.name, grant.access.rawValue,
                grant.typesColumn, grant.patientsColumn,
            ])
    }

    /// Deletes every grant of `principal` for `access`.
    static func deleteAll(_ access: AccessMode, of principal: Principal, _ db: Database) throws {
        try db.execute(
            sql: "DELETE FROM access_grant WHERE principal_kind = ? AND principal_name = ? AND access = ?",
            arguments: [principal.kind.rawValue, principal.name, access.rawValue])
    }

    /// Every grant of `principal`, or of everyone when `nil`.
    static func fetch(of principal: Principal?, _ db: Database) throws -> [AccessGrant] {
        let rows: [Row]
        if let principal {
            rows = try Row.fetchAll(
                db, sql: "SELECT principal_kind, principal_name, access, types, patients FROM access_grant WHERE principal_kind = ? AND principal_name = ?",
                arguments: [principal.kind.rawValue, principal.name])
        } else {
            rows = try Row.fetchAll(db, sql: "SELECT principal_kind, principal_name, access, types, patients FROM access_grant")
        }
        return try rows.map { row in
            try AccessGrant(
                kind: row.decode(atIndex: 0), name: row.decode(atIndex: 1), access: row.decode(atIndex: 2),
                typesColumn: row.decode(atIndex: 3), patientsColumn: row.decode(atIndex: 4))
        }
    }
}
