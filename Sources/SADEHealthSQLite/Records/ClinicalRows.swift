import Foundation
import GRDB
import SADEHealth

/// The clinical model in its tables: hospitals, sectors (mailing list as JSON),
/// patients (range overrides and attributes as JSON) and workers with their sectors
/// in `worker_sector`. Saving replaces a record in place (`ON CONFLICT DO UPDATE`), so
/// what refers to it stays.
enum ClinicalRows {
    // MARK: Writing

    static func upsert(_ hospital: Hospital, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO hospital (id, name, address) VALUES (?, ?, ?)
                ON CONFLICT(id) DO UPDATE SET name = excluded.name, address = excluded.address
                """,
            arguments: [hospital.id, hospital.name, hospital.address])
    }

    static func upsert(_ sector: HospitalSector, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO sector (id, hospital, name, mailing_list) VALUES (?, ?, ?, ?)
                ON CONFLICT(id) DO UPDATE SET hospital = excluded.hospital, name = excluded.name, mailing_list = excluded.mailing_list
                """,
            arguments: [sector.id, sector.hospital, sector.name, StoredJSON.encode(sector.mailingList)])
    }

    static func upsert(_ patient: Patient, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO patient (id, name, date_of_birth, sex, blood_type, sector, bed, range_overrides, uses_spo2_scale2, attributes)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(id) DO UPDATE SET
                    name = excluded.name, date_of_birth = excluded.date_of_birth, sex = excluded.sex,
                    blood_type = excluded.blood_type, sector = excluded.sector, bed = excluded.bed,
                    range_overrides = excluded.range_overrides, uses_spo2_scale2 = excluded.uses_spo2_scale2,
                    attributes = excluded.attributes
                """,
            arguments: [
                patient.id.rawValue, patient.name, patient.dateOfBirth?.timeIntervalSinceReferenceDate, patient.sex.rawValue,
                patient.bloodType.rawValue, patient.sector, patient.bed, patient.rangeOverridesColumn, patient.usesSpO2Scale2,
                StoredJSON.encode(patient.attributes),
            ])
    }

    static func upsert(_ worker: HealthCareWorker, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO worker (id, name, role, licence, email, phone, on_duty) VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(id) DO UPDATE SET
                    name = excluded.name, role = excluded.role, licence = excluded.licence, email = excluded.email,
                    phone = excluded.phone, on_duty = excluded.on_duty
                """,
            arguments: [worker.id, worker.name, worker.role.rawValue, worker.licence, worker.email, worker.phone, worker.onDuty])
        try db.execute(sql: "DELETE FROM worker_sector WHERE worker = ?", arguments: [worker.id])
        for sector in worker.sectors.sorted() {
            try db.execute(sql: "INSERT INTO worker_sector (worker, sector) VALUES (?, ?)", arguments: [worker.id, sector])
        }
    }

    /// Whether a row with `id` is in `table`.
    static func exists(_ table: String, _ id: String, _ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(table) WHERE id = ?)", arguments: [id]) ?? false
    }

    // MARK: Reading

    static let patientColumns = "id, name, date_of_birth, sex, blood_type, sector, bed, range_overrides, uses_spo2_scale2, attributes"
    static let workerColumns = "id, name, role, licence, email, phone, on_duty"

    static func hospital(_ row: Row) throws -> Hospital {
        Hospital(id: try row.decode(atIndex: 0), name: try row.decode(atIndex: 1), address: try row.decode(atIndex: 2))
    }

    static func sector(_ row: Row) throws -> HospitalSector {
        HospitalSector(
            id: try row.decode(atIndex: 0), hospital: try row.decode(atIndex: 1), name: try row.decode(atIndex: 2),
            mailingList: try StoredJSON.decode([String].self, try row.decode(atIndex: 3)))
    }

    static func patient(_ row: Row) throws -> Patient {
        let overrides = try Patient.rangeOverrides(try row.decode(atIndex: 7), of: try row.decode(atIndex: 0))
        guard let sex = BiologicalSex(rawValue: try row.decode(atIndex: 3)), let bloodType = BloodType(rawValue: try row.decode(atIndex: 4)) else {
            throw HealthError.storage("patient \(try row.decode(String.self, atIndex: 0)) has an unknown sex or blood type")
        }
        return Patient(
            id: PatientID(rawValue: try row.decode(atIndex: 0)), name: try row.decode(atIndex: 1),
            dateOfBirth: try row.decode(Double?.self, atIndex: 2).map(Date.init(timeIntervalSinceReferenceDate:)),
            sex: sex, bloodType: bloodType, sector: try row.decode(atIndex: 5), bed: try row.decode(atIndex: 6),
            rangeOverrides: overrides, usesSpO2Scale2: try row.decode(atIndex: 8),
            attributes: try StoredJSON.decode([String: String].self, try row.decode(atIndex: 9)))
    }

    /// A worker from its row; its sectors are read from `worker_sector`.
    static func worker(_ row: Row, _ db: Database) throws -> HealthCareWorker {
        let id: String = try row.decode(atIndex: 0)
        guard let role = HealthCareWorker.Role(rawValue: try row.decode(atIndex: 2)) else {
            throw HealthError.storage("worker \(id) has an unknown role")
        }
        let sectors = try String.fetchSet(db, sql: "SELECT sector FROM worker_sector WHERE worker = ?", arguments: [id])
        return HealthCareWorker(
            id: id, name: try row.decode(atIndex: 1), role: role, licence: try row.decode(atIndex: 3), email: try row.decode(atIndex: 4),
            phone: try row.decode(atIndex: 5), sectors: sectors, onDuty: try row.decode(atIndex: 6))
    }
}
