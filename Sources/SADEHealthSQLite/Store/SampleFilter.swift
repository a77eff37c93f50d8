import Foundation
import GRDB
import SADEHealth

/// The `WHERE` clause of a sample or tombstone query: the type, the patient (which
/// the principal must be allowed to read) or else the patients it may read, and a
/// time range.
struct SampleFilter {
    /// Conditions joined by `AND`.
    private(set) var conditions: [String] = []
    /// Their arguments, in order.
    private(set) var arguments: [(any DatabaseValueConvertible)?] = []
    /// True when the principal may read no patient at all: the answer is empty.
    private(set) var matchesNothing = false

    /// Samples of `type`, of `patient` or of every patient `policy` may read.
    ///
    /// - Parameter byChangeNumber: for anchored queries, which read the changes after
    ///   an anchor: without a single patient, the type and patient conditions are kept
    ///   off their indexes (`+`),
    ///   so that SQLite walks the rows after the anchor by `change_number` (the rowid)
    ///   instead of every sample of the type since the beginning (the type/time index,
    ///   which its planner otherwise prefers), then sorting them.
    /// - Throws: ``HealthError/invalidValue(field:reason:)`` for an unusable patient
    ///   identifier (``PatientID/validate(field:)``), or
    ///   ``HealthError/notAuthorized(principal:access:type:patient:)`` when `patient`
    ///   is given and the policy does not cover it.
    init(_ type: HealthType, patient: PatientID?, policy: AccessPolicy, byChangeNumber: Bool = false) throws(HealthError) {
        let column = byChangeNumber ? "+" : ""
        add("\(column)type = ?", type.identifier)
        if let patient {
            try patient.validate()
            try policy.require(.read, type, of: patient)
            add("patient = ?", patient.rawValue)  // one patient's samples: their index stays the better way
        } else if let allowed = policy.patients(.read, type) {
            matchesNothing = allowed.isEmpty
            let list = (try? JSONEncoder().encode(allowed.map(\.rawValue))).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
            add("\(column)patient IN (SELECT value FROM json_each(?))", list)
        }
    }

    /// Adds a condition with its arguments.
    mutating func add(_ condition: String, _ values: (any DatabaseValueConvertible)?...) {
        conditions.append(condition)
        arguments.append(contentsOf: values)
    }

    /// `WHERE …`.
    var sql: String { conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ") }

    /// The arguments, followed by `more`.
    func arguments(_ more: (any DatabaseValueConvertible)?...) -> StatementArguments {
        StatementArguments(arguments + more)
    }
}
