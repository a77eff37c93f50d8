import Foundation
import GRDB
import SADEHealth

/// Deletes sample rows and leaves a tombstone for each (members of a deleted
/// correlation included), numbered after every change so far, so anchored queries
/// report the deletion. Members, waveforms and chunks go by `ON DELETE CASCADE`.
enum SampleDeletion {
    /// The rows with these change numbers, and their members.
    static func delete(changeNumbers: [Int64], _ db: Database) throws {
        guard !changeNumbers.isEmpty else { return }
        let list = String(decoding: try JSONEncoder().encode(changeNumbers), as: UTF8.self)
        try bury(
            where: "change_number IN (SELECT value FROM json_each(?1)) OR correlation IN (SELECT value FROM json_each(?1))",
            arguments: [list], db)
        try db.execute(sql: "DELETE FROM sample WHERE change_number IN (SELECT value FROM json_each(?))", arguments: [list])
    }

    /// Every sample of `patient`.
    static func delete(patient: PatientID, _ db: Database) throws {
        try bury(where: "patient = ?1", arguments: [patient.rawValue], db)
        try db.execute(sql: "DELETE FROM sample WHERE patient = ?", arguments: [patient.rawValue])
    }

    /// Writes tombstones for the rows `condition` selects (it uses parameters from ?1 on;
    /// the last change number is bound after them).
    private static func bury(where condition: String, arguments: [(any DatabaseValueConvertible)?], _ db: Database) throws {
        let last = try SampleWriter.lastChangeNumber(db)
        try db.execute(
            sql: """
                INSERT INTO tombstone (change_number, uuid, patient, type)
                SELECT ?\(arguments.count + 1) + ROW_NUMBER() OVER (ORDER BY change_number), uuid, patient, type
                FROM sample WHERE \(condition)
                """,
            arguments: StatementArguments(arguments + [last]))
    }
}
