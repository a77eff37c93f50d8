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
                try grant.types.map { try json($0.map(\.identifier)) }, try grant.patients.map { try json($0.map(\.rawValue)) },
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
        let decoder = JSONDecoder()
        return try rows.map { row in
            guard let kind = Principal.Kind(rawValue: try row.decode(atIndex: 0)), let access = AccessMode(rawValue: try row.decode(atIndex: 2))
            else { throw HealthError.storage("a grant has an unknown principal kind or access mode") }
            let types: Set<HealthType>? = try (row.decode(String?.self, atIndex: 3)).map { json throws in
                Set(try decoder.decode([String].self, from: Data(json.utf8)).map { identifier throws in try HealthType(identifier: identifier) })
            }
            let patients: Set<PatientID>? = try (row.decode(String?.self, atIndex: 4)).map { json throws in
                Set(try decoder.decode([String].self, from: Data(json.utf8)).map(PatientID.init(rawValue:)))
            }
            return AccessGrant(Principal(kind, try row.decode(atIndex: 1)), access, types: types, patients: patients)
        }
    }

    /// A sorted JSON array, so equal sets make equal text.
    private static func json(_ values: [String]) throws -> String {
        String(decoding: try JSONEncoder().encode(values.sorted()), as: UTF8.self)
    }
}
