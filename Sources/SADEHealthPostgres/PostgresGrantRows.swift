import PostgresNIO
import SADEHealth
import SADEPostgres

/// ``AccessGrant``s in the `access_grant` table (types and patients as sorted JSON, NULL for "all").
enum PostgresGrantRows {
    /// Every grant of `principal`, or of everyone when `nil`.
    static func fetch(of principal: Principal?, _ connection: PostgresConnection, _ database: PostgresPool) async throws -> [AccessGrant] {
        let rows: [PostgresRow]
        if let principal {
            rows = try await connection.rows(
                """
                SELECT principal_kind, principal_name, access, types, patients FROM access_grant
                WHERE principal_kind = \(principal.kind.rawValue) AND principal_name = \(principal.name) ORDER BY id
                """, database)
        } else {
            rows = try await connection.rows("SELECT principal_kind, principal_name, access, types, patients FROM access_grant ORDER BY id", database)
        }
        return try rows.map { row in
            let (kind, name, access, types, patients) = try row.decode((String, String, String, String?, String?).self)
            return try AccessGrant(kind: kind, name: name, access: access, typesColumn: types, patientsColumn: patients)
        }
    }
}
