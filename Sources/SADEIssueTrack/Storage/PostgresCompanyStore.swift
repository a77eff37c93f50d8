import Foundation
import PostgresNIO
import SADEPostgres

/// The company's data in PostgreSQL, shared by every node: the office (which runs on
/// one node at a time) and every node's API read and write the same company. The same
/// behaviour as ``SQLiteCompanyStore``; one conformance suite runs against both.
///
/// ```swift
/// let store = try await PostgresCompanyStore(pool)
/// ```
public struct PostgresCompanyStore: CompanyStore {
    let pool: PostgresPool

    /// The company in `pool`'s database; the tables are made on first use by any node
    /// (safe when several start at once).
    ///
    /// - Throws: ``IssueTrackError/unavailable(_:)`` when the server cannot be reached,
    ///   ``IssueTrackError/storage(_:)`` when a migration fails.
    public init(_ pool: PostgresPool) async throws(IssueTrackError) {
        self.pool = pool
        do {
            try await pool.migrate("issuetrack", Self.migrations)
        } catch {
            throw IssueTrackError(error)
        }
    }

    static let migrations: [PostgresPool.Migration] = [
        .init(
            "v1-company",
            """
            CREATE TABLE issuetrack_company (id INT PRIMARY KEY CHECK (id = 1), name TEXT NOT NULL, description TEXT NOT NULL);
            CREATE TABLE issuetrack_service (name TEXT PRIMARY KEY, description TEXT NOT NULL);
            CREATE TABLE issuetrack_employee (
                id TEXT PRIMARY KEY, name TEXT NOT NULL, birth_date DOUBLE PRECISION NOT NULL, email TEXT NOT NULL, phone TEXT NOT NULL);
            CREATE TABLE issuetrack_employee_service (
                employee_id TEXT NOT NULL REFERENCES issuetrack_employee ON DELETE CASCADE,
                service_name TEXT NOT NULL REFERENCES issuetrack_service ON DELETE CASCADE,
                PRIMARY KEY (employee_id, service_name));
            CREATE INDEX issuetrack_employee_service_by_service ON issuetrack_employee_service (service_name);
            CREATE TABLE issuetrack_issue (
                id BIGSERIAL PRIMARY KEY, title TEXT NOT NULL, description TEXT NOT NULL, priority TEXT NOT NULL,
                deadline DOUBLE PRECISION NOT NULL, service TEXT NOT NULL REFERENCES issuetrack_service, status TEXT NOT NULL,
                assignee TEXT REFERENCES issuetrack_employee, reporter TEXT REFERENCES issuetrack_employee, resolution_note TEXT);
            CREATE INDEX issuetrack_issue_by_assignee ON issuetrack_issue (assignee, status);
            CREATE TABLE issuetrack_presence (
                employee_id TEXT PRIMARY KEY REFERENCES issuetrack_employee ON DELETE CASCADE, connected BOOLEAN NOT NULL);
            CREATE TABLE issuetrack_round (issue_id BIGINT PRIMARY KEY REFERENCES issuetrack_issue ON DELETE CASCADE, state TEXT NOT NULL);
            """),
        // Calls between nodes (``OfficeCalls``): what a node without the office asks of the
        // node with it, taken by one office only, and the answer.
        .init(
            "v2-calls",
            """
            CREATE TABLE issuetrack_call (
                id UUID PRIMARY KEY, caller TEXT NOT NULL, body TEXT NOT NULL, taken_by TEXT, answer TEXT,
                made_at TIMESTAMPTZ NOT NULL DEFAULT now());
            """),
    ]

    // MARK: Company, services, employees

    public func setCompany(name: String, description: String) async throws(IssueTrackError) {
        try await query(
            """
            INSERT INTO issuetrack_company (id, name, description) VALUES (1, \(name), \(description))
            ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, description = EXCLUDED.description
            """)
    }

    public func company() async throws(IssueTrackError) -> Company {
        try await transaction(.snapshot) { connection, pool throws -> Company in
            let company = try await connection.rows("SELECT name, description FROM issuetrack_company WHERE id = 1", pool).first?
                .decode((String, String).self)
            let services = try await connection.rows("SELECT name, description FROM issuetrack_service ORDER BY name COLLATE \"C\"", pool)
                .map { row in
                    let (name, description) = try row.decode((String, String).self)
                    return Service(name: name, description: description)
                }
            return Company(
                name: company?.0 ?? "", description: company?.1 ?? "", services: services,
                issues: try await connection.rows("SELECT \(unescaped: Self.issueColumns) FROM issuetrack_issue ORDER BY id", pool).map(Self.issue),
                employees: try await Self.employees(on: connection, pool, offering: nil))
        }
    }

    public func save(_ service: Service) async throws(IssueTrackError) {
        try await query(
            """
            INSERT INTO issuetrack_service (name, description) VALUES (\(service.name), \(service.description))
            ON CONFLICT (name) DO UPDATE SET description = EXCLUDED.description
            """)
    }

    public func save(_ employee: Employee) async throws(IssueTrackError) {
        guard Employee.isValidID(employee.id) else { throw .invalidEmployeeID(employee.id) }
        let services = Array(Set(employee.services)).sorted()
        try await transaction { connection, pool in
            let known = try await connection.rows("SELECT name FROM issuetrack_service WHERE name = ANY(\(services))", pool).map { try $0.decode(String.self) }
            if let unknown = services.first(where: { !known.contains($0) }) { throw IssueTrackError.unknownService(unknown) }
            try await connection.rows(
                """
                INSERT INTO issuetrack_employee (id, name, birth_date, email, phone)
                VALUES (\(employee.id), \(employee.name), \(employee.birthDate.timeIntervalSince1970), \(employee.email), \(employee.phone))
                ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, birth_date = EXCLUDED.birth_date, email = EXCLUDED.email, phone = EXCLUDED.phone
                """, pool)
            try await connection.rows("DELETE FROM issuetrack_employee_service WHERE employee_id = \(employee.id)", pool)
            try await connection.rows(
                "INSERT INTO issuetrack_employee_service (employee_id, service_name) SELECT \(employee.id), UNNEST(\(services)::TEXT[])", pool)
        }
    }

    public func employee(_ id: String) async throws(IssueTrackError) -> Employee? {
        try await transaction(.snapshot) { connection, pool in
            try await Self.employees(on: connection, pool, offering: nil).first { $0.id == id }
        }
    }

    public func employees(offering service: String) async throws(IssueTrackError) -> [Employee] {
        try await transaction(.snapshot) { connection, pool in try await Self.employees(on: connection, pool, offering: service) }
    }

    private static func employees(on connection: PostgresConnection, _ pool: PostgresPool, offering service: String?) async throws -> [Employee] {
        var offered: [String: [String]] = [:]
        for row in try await connection.rows(
            "SELECT employee_id, service_name FROM issuetrack_employee_service ORDER BY service_name COLLATE \"C\"", pool)
        {
            let (employee, name) = try row.decode((String, String).self)
            offered[employee, default: []].append(name)
        }
        return try await connection.rows("SELECT id, name, birth_date, email, phone FROM issuetrack_employee ORDER BY id COLLATE \"C\"", pool)
            .compactMap { row in
                let (id, name, birth, email, phone) = try row.decode((String, String, Double, String, String).self)
                let services = offered[id] ?? []
                if let service, !services.contains(service) { return nil }
                return Employee(id: id, name: name, birthDate: Date(timeIntervalSince1970: birth), email: email, phone: phone, services: services)
            }
    }

    // MARK: Issues

    public func register(_ issue: Issue) async throws(IssueTrackError) -> Issue {
        try await transaction { connection, pool in
            guard try await !connection.rows("SELECT 1 FROM issuetrack_service WHERE name = \(issue.service)", pool).isEmpty else {
                throw IssueTrackError.unknownService(issue.service)
            }
            var stored = issue
            stored.id = try await connection.rows(
                """
                INSERT INTO issuetrack_issue (title, description, priority, deadline, service, status, assignee, reporter, resolution_note)
                VALUES (\(issue.title), \(issue.description), \(issue.priority.rawValue), \(issue.deadline.timeIntervalSince1970),
                        \(issue.service), \(issue.status.rawValue), \(issue.assignee), \(issue.reporter), \(issue.resolutionNote))
                RETURNING id
                """, pool
            ).first?.decode(Int64.self)
            return stored
        }
    }

    public func issue(_ id: Int64) async throws(IssueTrackError) -> Issue? {
        try await query("SELECT \(unescaped: Self.issueColumns) FROM issuetrack_issue WHERE id = \(id)").first.map(Self.readIssue)
    }

    public func work(of employee: String) async throws(IssueTrackError) -> [Issue] {
        try await query(
            """
            SELECT \(unescaped: Self.issueColumns) FROM issuetrack_issue
            WHERE assignee = \(employee) AND status = \(IssueStatus.inProgress.rawValue) ORDER BY deadline, id
            """
        ).map(Self.readIssue)
    }

    public func assign(_ id: Int64, to employee: String) async throws(IssueTrackError) {
        try await updated(id, query("UPDATE issuetrack_issue SET status = \(IssueStatus.inProgress.rawValue), assignee = \(employee) WHERE id = \(id) RETURNING id"))
    }

    public func resolve(_ id: Int64, solved: Bool, note: String?) async throws(IssueTrackError) {
        let status = solved ? IssueStatus.solved : .unsolved
        try await updated(id, query("UPDATE issuetrack_issue SET status = \(status.rawValue), resolution_note = \(note) WHERE id = \(id) RETURNING id"))
    }

    private func updated(_ id: Int64, _ rows: [PostgresRow]) throws(IssueTrackError) {
        if rows.isEmpty { throw .unknownIssue(id) }
    }

    // MARK: Presence

    public func setConnected(_ employee: String, _ connected: Bool) async throws(IssueTrackError) {
        let rows = try await query(
            """
            INSERT INTO issuetrack_presence (employee_id, connected) SELECT id, \(connected) FROM issuetrack_employee WHERE id = \(employee)
            ON CONFLICT (employee_id) DO UPDATE SET connected = EXCLUDED.connected RETURNING employee_id
            """)
        if rows.isEmpty { throw .unknownEmployee(employee) }
    }

    public func disconnectedEmployees() async throws(IssueTrackError) -> Set<String> {
        let rows = try await query("SELECT employee_id FROM issuetrack_presence WHERE NOT connected")
        do { return Set(try rows.map { try $0.decode(String.self) }) } catch { throw IssueTrackError(error) }
    }

    // MARK: Rounds

    public func setRound(_ round: RoundState, of id: Int64) async throws(IssueTrackError) {
        let state = try StoredRound.encoded(round)
        let rows = try await query(
            """
            INSERT INTO issuetrack_round (issue_id, state) SELECT id, \(state) FROM issuetrack_issue WHERE id = \(id)
            ON CONFLICT (issue_id) DO UPDATE SET state = EXCLUDED.state RETURNING issue_id
            """)
        if rows.isEmpty { throw .unknownIssue(id) }
    }

    public func rounds(of ids: [Int64]?) async throws(IssueTrackError) -> [Int64: RoundState] {
        let rows =
            if let ids {
                try await query("SELECT issue_id, state FROM issuetrack_round WHERE issue_id = ANY(\(ids))")
            } else {
                try await query("SELECT issue_id, state FROM issuetrack_round")
            }
        do {
            return try StoredRound.decoded(try rows.map { row in
                let (id, state) = try row.decode((Int64, String).self)
                return (id, state)
            })
        } catch let error as IssueTrackError {
            throw error
        } catch {
            throw IssueTrackError(error)
        }
    }

    public func interruptRunningRounds() async throws(IssueTrackError) -> [Int64] {
        let running = try StoredRound.encoded(.running)
        return try await transaction { connection, pool in
            let issues = try await connection.rows(
                """
                SELECT \(unescaped: Self.issueColumns) FROM issuetrack_issue
                WHERE id IN (SELECT issue_id FROM issuetrack_round WHERE state = \(running) OR state LIKE \(Self.askingPattern))
                ORDER BY id FOR UPDATE
                """, pool
            ).map(Self.issue)
            var interrupted: [Int64] = []
            for issue in issues {
                // Only if still running: an office closing may have just stored how its round ended.
                let rows = try await connection.rows(
                    """
                    UPDATE issuetrack_round SET state = \(try StoredRound.encoded(Self.interrupted(issue)))
                    WHERE issue_id = \(issue.id) AND (state = \(running) OR state LIKE \(Self.askingPattern)) RETURNING issue_id
                    """, pool)
                if !rows.isEmpty, let id = issue.id { interrupted.append(id) }
            }
            return interrupted
        }
    }

    // MARK: Rows and errors

    private static let issueColumns = "id, title, description, priority, deadline, service, status, assignee, reporter, resolution_note"

    private static func issue(_ row: PostgresRow) throws -> Issue {
        let (id, title, description, priority, deadline, service, status, assignee, reporter, note) =
            try row.decode((Int64, String, String, String, Double, String, String, String?, String?, String?).self)
        guard let priority = IssuePriority(rawValue: priority), let status = IssueStatus(rawValue: status) else {
            throw IssueTrackError.storage("issue #\(id) has an unknown priority '\(priority)' or status '\(status)'")
        }
        return Issue(
            id: id, title: title, description: description, priority: priority, deadline: Date(timeIntervalSince1970: deadline),
            service: service, status: status, assignee: assignee, reporter: reporter, resolutionNote: note)
    }

    private static func readIssue(_ row: PostgresRow) throws(IssueTrackError) -> Issue {
        do { return try issue(row) } catch { throw IssueTrackError(error) }
    }

    @discardableResult
    private func query(_ query: PostgresQuery) async throws(IssueTrackError) -> [PostgresRow] {
        do { return try await pool.query(query) } catch { throw IssueTrackError(error) }
    }

    private func transaction<Result: Sendable>(
        _ isolation: PostgresPool.TransactionIsolation = .readCommitted,
        _ body: @escaping @Sendable (PostgresConnection, PostgresPool) async throws -> Result
    ) async throws(IssueTrackError) -> Result {
        let pool = self.pool
        do { return try await pool.transaction(isolation) { connection in try await body(connection, pool) } } catch { throw IssueTrackError(error) }
    }
}

extension IssueTrackError {
    /// Any error met on the way to PostgreSQL: an ``IssueTrackError`` as it is, the
    /// server out of reach as ``unavailable(_:)``, anything else as ``storage(_:)``.
    init(_ error: any Error) {
        if let error = error as? IssueTrackError {
            self = error
            return
        }
        let failure = PostgresFailure(error)
        self = failure.isUnavailable ? .unavailable(failure.description) : .storage(failure.description)
    }
}
