import Foundation
import GRDB
import SADEHealth

extension SQLiteHealthStore {
    /// Adds or replaces a hospital; its sectors stay.
    public func save(_ hospital: Hospital) async throws(HealthError) {
        try hospital.validate()
        try await write { db in try ClinicalRows.upsert(hospital, db) }
    }

    /// Adds or replaces a sector.
    ///
    /// - Throws: ``HealthError/invalidValue(field:reason:)`` naming `hospital` when no
    ///   such hospital is registered.
    public func save(_ sector: HospitalSector) async throws(HealthError) {
        try sector.validate()
        try await write { db in
            guard try ClinicalRows.exists("hospital", sector.hospital, db) else {
                throw HealthError.invalidValue(field: "hospital", reason: "no hospital '\(sector.hospital)' is registered")
            }
            try ClinicalRows.upsert(sector, db)
        }
    }

    /// Adds or replaces a patient; their samples stay.
    ///
    /// - Throws: ``HealthError/invalidValue(field:reason:)`` naming the field when the
    ///   record is not valid (``Patient/validate()``), or `sector` when it is set to a
    ///   sector that is not registered.
    public func save(_ patient: Patient) async throws(HealthError) {
        try patient.validate()
        try await write { db in
            if let sector = patient.sector, try !ClinicalRows.exists("sector", sector, db) {
                throw HealthError.invalidValue(field: "sector", reason: "no sector '\(sector)' is registered")
            }
            try ClinicalRows.upsert(patient, db)
        }
    }

    /// Adds or replaces a health-care worker with their sector assignments.
    ///
    /// - Throws: ``HealthError/invalidValue(field:reason:)`` naming `sectors` when one is
    ///   not registered.
    public func save(_ worker: HealthCareWorker) async throws(HealthError) {
        try worker.validate()
        try await write { db in
            for sector in worker.sectors.sorted() where try !ClinicalRows.exists("sector", sector, db) {
                throw HealthError.invalidValue(field: "sectors", reason: "no sector '\(sector)' is registered")
            }
            try ClinicalRows.upsert(worker, db)
        }
    }

    /// Every hospital, by name.
    public func hospitals() async throws(HealthError) -> [Hospital] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT id, name, address FROM hospital ORDER BY name, id").map(ClinicalRows.hospital)
        }
    }

    /// The sectors of `hospital` (every sector when `nil`), by name.
    public func sectors(of hospital: HospitalID?) async throws(HealthError) -> [HospitalSector] {
        if let hospital { try HealthText.validateIdentifier(hospital, field: "hospital") }
        return try await read { db in
            try Row.fetchAll(
                db, sql: "SELECT id, hospital, name, mailing_list FROM sector WHERE ?1 IS NULL OR hospital = ?1 ORDER BY name, id",
                arguments: [hospital]
            ).map(ClinicalRows.sector)
        }
    }

    /// The patient, if registered.
    public func patient(_ id: PatientID) async throws(HealthError) -> Patient? {
        try id.validate()
        return try await read { db in
            try Row.fetchOne(db, sql: "SELECT \(ClinicalRows.patientColumns) FROM patient WHERE id = ?", arguments: [id.rawValue])
                .map(ClinicalRows.patient)
        }
    }

    /// The patients interned in `sector` (every patient when `nil`), by name.
    public func patients(in sector: SectorID?) async throws(HealthError) -> [Patient] {
        if let sector { try HealthText.validateIdentifier(sector, field: "sector") }
        return try await read { db in
            try Row.fetchAll(
                db, sql: "SELECT \(ClinicalRows.patientColumns) FROM patient WHERE ?1 IS NULL OR sector = ?1 ORDER BY name, id",
                arguments: [sector]
            ).map(ClinicalRows.patient)
        }
    }

    /// The worker, if registered.
    public func worker(_ id: StaffID) async throws(HealthError) -> HealthCareWorker? {
        try HealthText.validateIdentifier(id, field: "worker")
        return try await read { db in
            try Row.fetchOne(db, sql: "SELECT \(ClinicalRows.workerColumns) FROM worker WHERE id = ?", arguments: [id])
                .map { try ClinicalRows.worker($0, db) }
        }
    }

    /// The workers assigned to `sector` (every worker when `nil`), by name.
    public func workers(in sector: SectorID?) async throws(HealthError) -> [HealthCareWorker] {
        if let sector { try HealthText.validateIdentifier(sector, field: "sector") }
        return try await read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(ClinicalRows.workerColumns) FROM worker
                    WHERE ?1 IS NULL OR id IN (SELECT worker FROM worker_sector WHERE sector = ?1) ORDER BY name, id
                    """,
                arguments: [sector]
            ).map { try ClinicalRows.worker($0, db) }
        }
    }

    /// Interns a registered patient in a registered sector, in `bed`.
    ///
    /// - Throws: ``HealthError/notFound(_:)`` for an unknown patient or sector.
    public func admit(_ patient: PatientID, to sector: SectorID, bed: String?) async throws(HealthError) {
        try patient.validate()
        try HealthText.validateIdentifier(sector, field: "sector")
        try HealthText.validateFreeText(bed, field: "bed")
        return try await write { db in
            guard try ClinicalRows.exists("patient", patient.rawValue, db) else { throw HealthError.notFound("patient \(patient)") }
            guard try ClinicalRows.exists("sector", sector, db) else { throw HealthError.notFound("sector \(sector)") }
            try db.execute(sql: "UPDATE patient SET sector = ?, bed = ? WHERE id = ?", arguments: [sector, bed, patient.rawValue])
        }
    }

    /// Ends a patient's stay: no sector, no bed.
    ///
    /// - Throws: ``HealthError/notFound(_:)`` for an unknown patient.
    public func discharge(_ patient: PatientID) async throws(HealthError) {
        try patient.validate()
        return try await write { db in
            try db.execute(sql: "UPDATE patient SET sector = NULL, bed = NULL WHERE id = ?", arguments: [patient.rawValue])
            guard db.changesCount > 0 else { throw HealthError.notFound("patient \(patient)") }
        }
    }

    /// Removes a patient and every sample about them, in one transaction; each deleted
    /// sample shows in anchored queries.
    ///
    /// - Throws: ``HealthError/notFound(_:)`` when there is neither such a patient nor a sample about them.
    public func remove(_ patient: PatientID) async throws(HealthError) {
        try patient.validate()
        return try await write { db in
            let samples = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sample WHERE patient = ?", arguments: [patient.rawValue]) ?? 0
            try SampleDeletion.delete(patient: patient, db)
            try db.execute(sql: "DELETE FROM patient WHERE id = ?", arguments: [patient.rawValue])
            guard db.changesCount > 0 || samples > 0 else { throw HealthError.notFound("patient \(patient)") }
        }
    }
}
