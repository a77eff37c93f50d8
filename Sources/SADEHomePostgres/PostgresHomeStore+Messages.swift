import Foundation
import PostgresNIO
import SADEHome
import SADEPostgres

extension PostgresHomeStore {
    public func raise(_ draft: HomeMessageDraft, at date: Date) async throws(HomeError) -> (message: HomeMessage, isNew: Bool) {
        try draft.validate()
        let database = self.database
        return try await write("raising a message") { connection in
            guard try await !connection.rows("SELECT id FROM home_flat WHERE id = \(draft.flat)", database).isEmpty else {
                throw HomeError.unknownFlat(draft.flat)
            }
            if let open = try await Self.openMessage(flat: draft.flat, key: draft.key, on: connection, database) { return (open, false) }
            let expires = draft.lifetime.map { Self.milliseconds(date.addingTimeInterval($0.seconds)) }
            // Two nodes raising the same message at once: the second waits for the first's
            // row, inserts nothing, and returns the first's message (read again below).
            let inserted = try await connection.rows(
                """
                INSERT INTO home_message (flat, device, severity, title, text, key, raised_at, expires_at, state, notice)
                VALUES (\(draft.flat), \(draft.device), \(draft.severity.rawValue), \(draft.title), \(draft.text), \(draft.key),
                        \(Self.milliseconds(date)), \(expires), \(draft.initialState.rawValue), \(draft.notice.uuidString))
                ON CONFLICT (flat, key) WHERE state = 'open' DO NOTHING
                RETURNING \(unescaped: Self.messageColumns)
                """, database)
            if let row = inserted.first { return (try Self.message(row), true) }
            guard let open = try await Self.openMessage(flat: draft.flat, key: draft.key, on: connection, database) else {
                throw HomeError.storage("message \(draft.key) was neither raised nor open")
            }
            return (open, false)
        }
    }

    public func confirm(message id: Int64, by person: String, at date: Date) async throws(HomeError) -> HomeMessage {
        let database = self.database
        return try await write("confirming message \(id)") { connection in
            let confirmed = try await connection.rows(
                """
                UPDATE home_message SET state = 'confirmed', confirmed_by = \(person), confirmed_at = \(Self.milliseconds(date))
                WHERE id = \(id) AND state = 'open' RETURNING \(unescaped: Self.messageColumns)
                """, database)
            if let row = confirmed.first { return try Self.message(row) }
            let message = try await Self.message(id: id, on: connection, database)
            throw HomeError.invalidValue(field: "state", reason: "message \(id) is \(message.state.rawValue); only open messages can be confirmed")
        }
    }

    public func expireMessages(at date: Date) async throws(HomeError) -> [HomeMessage] {
        let database = self.database
        return try await write("expiring messages") { connection in
            try await connection.rows(
                """
                UPDATE home_message SET state = 'expired'
                WHERE state = 'open' AND expires_at IS NOT NULL AND expires_at <= \(Self.milliseconds(date))
                RETURNING \(unescaped: Self.messageColumns)
                """, database
            ).map(Self.message).sorted { $0.id < $1.id }
        }
    }

    public func messages(flat: FlatID, states: Set<HomeMessageState>?, from start: Date?, to end: Date?) async throws(HomeError) -> [HomeMessage] {
        let database = self.database
        let stateNames = states.map { $0.map(\.rawValue) }
        return try await read("reading messages") { connection in
            try await connection.rows(
                """
                SELECT \(unescaped: Self.messageColumns) FROM home_message
                WHERE flat = \(flat) AND (\(start.map(Self.milliseconds))::bigint IS NULL OR raised_at >= \(start.map(Self.milliseconds)))
                    AND (\(end.map(Self.milliseconds))::bigint IS NULL OR raised_at < \(end.map(Self.milliseconds)))
                    AND (\(stateNames)::text[] IS NULL OR state = ANY(\(stateNames)))
                ORDER BY raised_at DESC, id DESC
                """, database
            ).map(Self.message)
        }
    }

    public func message(_ id: Int64) async throws(HomeError) -> HomeMessage {
        let database = self.database
        return try await read("reading message \(id)") { connection in try await Self.message(id: id, on: connection, database) }
    }

    // MARK: Rows

    private static let messageColumns = """
        id, flat, device, severity, title, text, key, raised_at, expires_at, state, confirmed_by, confirmed_at, notice
        """

    /// The flat's open message with `key`, if any (a new one of any class joins it).
    private static func openMessage(flat: FlatID, key: String, on connection: PostgresConnection, _ database: PostgresPool) async throws
        -> HomeMessage?
    {
        try await connection.rows(
            "SELECT \(unescaped: messageColumns) FROM home_message WHERE flat = \(flat) AND key = \(key) AND state = 'open'", database
        ).first.map(message)
    }

    private static func message(id: Int64, on connection: PostgresConnection, _ database: PostgresPool) async throws -> HomeMessage {
        guard let row = try await connection.rows("SELECT \(unescaped: messageColumns) FROM home_message WHERE id = \(id)", database).first else {
            throw HomeError.unknownMessage(id)
        }
        return try message(row)
    }

    private static func message(_ row: PostgresRow) throws -> HomeMessage {
        let (id, flat, device, severity, title, text, key, raised, expires, state, confirmedBy, confirmedAt, notice) = try row.decode(
            (Int64, Int64, Int64?, String, String, String, String, Int64, Int64?, String, String?, Int64?, String?).self)
        return try HomeMessage.stored(
            id: id, flat: flat, device: device, severity: severity, title: title, text: text, key: key, raisedAt: raised, expiresAt: expires,
            state: state, confirmedBy: confirmedBy, confirmedAt: confirmedAt, notice: notice)
    }
}
