import GRDB

extension CompanyStore {
    /// Records whether `employee` is connected to the company network; an employee
    /// never recorded counts as connected.
    ///
    /// - Throws: ``IssueTrackError/unknownEmployee(_:)``.
    public func setConnected(_ employee: String, _ connected: Bool) throws(IssueTrackError) {
        try write { db in
            guard try EmployeeRow.fetchOne(db, key: employee) != nil else { throw IssueTrackError.unknownEmployee(employee) }
            try db.execute(
                sql: "INSERT INTO presence (employeeID, connected) VALUES (?, ?) ON CONFLICT(employeeID) DO UPDATE SET connected = excluded.connected",
                arguments: [employee, connected])
        }
    }

    /// The employees recorded as not connected (out of the office), by id.
    public func disconnectedEmployees() throws(IssueTrackError) -> Set<String> {
        try read { db in Set(try String.fetchAll(db, sql: "SELECT employeeID FROM presence WHERE NOT connected")) }
    }
}
