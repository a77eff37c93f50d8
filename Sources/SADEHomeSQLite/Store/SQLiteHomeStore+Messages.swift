import Foundation
import GRDB
import SADEHome
import SADENotification

extension SQLiteHomeStore {
    public func raise(_ draft: HomeMessageDraft, at date: Date) async throws(HomeError) -> (message: HomeMessage, isNew: Bool) {
        try draft.validate()
        return try await write("raising a message") { db in
            _ = try Self.flat(draft.flat, in: db)
            if let open = try Row.fetchOne(db, sql: "SELECT * FROM message WHERE flat = ? AND key = ? AND state = 'open'", arguments: [draft.flat, draft.key]) {
                return (try Self.message(open), false)
            }
            let expires = draft.lifetime.map { date.addingTimeInterval($0.seconds) }
            try db.execute(
                sql: """
                    INSERT INTO message (flat, device, severity, title, text, key, raised_at, expires_at, state, notice)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    draft.flat, draft.device, draft.severity.rawValue, draft.title, draft.text, draft.key, Self.milliseconds(date),
                    expires.map(Self.milliseconds), draft.initialState.rawValue, draft.notice.uuidString,
                ])
            return (try Self.message(id: db.lastInsertedRowID, in: db), true)
        }
    }

    public func confirm(message id: Int64, by person: String, at date: Date) async throws(HomeError) -> HomeMessage {
        try await write("confirming message \(id)") { db in
            let message = try Self.message(id: id, in: db)
            guard message.state == .open else {
                throw HomeError.invalidValue(field: "state", reason: "message \(id) is \(message.state.rawValue); only open messages can be confirmed")
            }
            try db.execute(
                sql: "UPDATE message SET state = 'confirmed', confirmed_by = ?, confirmed_at = ? WHERE id = ?",
                arguments: [person, Self.milliseconds(date), id])
            return try Self.message(id: id, in: db)
        }
    }

    public func expireMessages(at date: Date) async throws(HomeError) -> [HomeMessage] {
        try await write("expiring messages") { db in
            let ids = try Int64.fetchAll(
                db, sql: "SELECT id FROM message WHERE state = 'open' AND expires_at IS NOT NULL AND expires_at <= ?", arguments: [Self.milliseconds(date)])
            guard !ids.isEmpty else { return [] }
            try db.execute(sql: "UPDATE message SET state = 'expired' WHERE state = 'open' AND expires_at IS NOT NULL AND expires_at <= ?",
                           arguments: [Self.milliseconds(date)])
            return try ids.map { try Self.message(id: $0, in: db) }
        }
    }

    public func messages(flat: FlatID, states: Set<HomeMessageState>?, from start: Date?, to end: Date?) async throws(HomeError) -> [HomeMessage] {
        try await read("reading messages") { db in
            var sql = "SELECT * FROM message WHERE flat = ?"
            var arguments: StatementArguments = [flat]
            if let start { sql += " AND raised_at >= ?"; arguments += [Self.milliseconds(start)] }
            if let end { sql += " AND raised_at < ?"; arguments += [Self.milliseconds(end)] }
            if let states { sql += " AND state IN (\(states.map { "'\($0.rawValue)'" }.joined(separator: ",")))" }
            return try Row.fetchAll(db, sql: sql + " ORDER BY raised_at DESC, id DESC", arguments: arguments).map(Self.message)
        }
    }

    public func message(_ id: Int64) async throws(HomeError) -> HomeMessage {
        try await read("reading message \(id)") { db in try Self.message(id: id, in: db) }
    }

    static func message(id: Int64, in db: Database) throws -> HomeMessage {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM message WHERE id = ?", arguments: [id]) else { throw HomeError.unknownMessage(id) }
        return try message(row)
    }

    static func message(_ row: Row) throws -> HomeMessage {
        try HomeMessage.stored(
            id: row["id"], flat: row["flat"], device: row["device"], severity: row["severity"], title: row["title"], text: row["text"],
            key: row["key"], raisedAt: row["raised_at"], expiresAt: row["expires_at"], state: row["state"], confirmedBy: row["confirmed_by"],
            confirmedAt: row["confirmed_at"], notice: row["notice"])
    }
}
