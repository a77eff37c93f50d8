import GRDB

extension SQLiteCompanyStore {
    public func setConnected(_ employee: String, _ connected: Bool) async throws(IssueTrackError) {
        try write { db in
            guard try EmployeeRow.fetchOne(db, key: employee) != nil else { throw IssueTrackError.unknownEmployee(employee) }
            try db.execute(
                sql: "INSERT INTO presence (employeeID, connected) VALUES (?, ?) ON CONFLICT(employeeID) DO UPDATE SET connected = excluded.connected",
                arguments: [employee, connected])
        }
    }

    public func disconnectedEmployees() async throws(IssueTrackError) -> Set<String> {
        try read { db in Set(try String.fetchAll(db, sql: "SELECT employeeID FROM presence WHERE NOT connected")) }
    }
}
