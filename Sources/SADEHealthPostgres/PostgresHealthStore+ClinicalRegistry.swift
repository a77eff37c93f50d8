import Foundation
import PostgresNIO
import SADEHealth
import SADEPostgres

extension PostgresHealthStore {
    /// Adds or replaces a hospital; its sectors stay.
    public func save(_ hospital: Hospital) async throws(HealthError) {
        try hospital.validate()
        try await write { [database] connection in
            try await connection.rows(
                """
                INSERT INTO hospital (id, name, address) VALUES (\(hospital.id), \(hospital.name), \(hospital.address))
                ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, address = EXCLUDED.address
                """, database)
        }
    }

    /// Adds or replaces a sector.
    ///
    /// - Throws: ``HealthError/invalidValue(field:reason:)`` naming `hospital` when no such hospital is registered.
    public func save(_ sector: HospitalSector) async throws(HealthError) {
        try sector.validate()
        try await write { [database] connection in
            guard try await Self.exists("hospital", sector.hospital, connection, database) else {
                throw HealthError.invalidValue(field: "hospital", reason: "no hospital '\(sector.hospital)' is registered")
            }
            try await connection.rows(
                """
                INSERT INTO sector (id, hospital, name, mailing_list)
                VALUES (\(sector.id), \(sector.hospital), \(sector.name), \(StoredJSON.encode(sector.mailingList)))
                ON CONFLICT (id) DO UPDATE SET hospital = EXCLUDED.hospital, name = EXCLUDED.name, mailing_list = EXCLUDED.mailing_list
                """, database)
        }
    }

    /// Adds or replaces a patient; their samples stay.
    ///
    /// - Throws: ``HealthError/invalidValue(field:reason:)`` naming the field when the
    ///   record is not valid, or `sector` when it is set to a sector that is not registered.
    public func save(_ patient: Patient) async throws(HealthError) {
        try patient.validate()
        try await write { [database] connection in
            if let sector = patient.sector, try await !Self.exists("sector", sector, connection, database) {
                throw HealthError.invalidValue(field: "sector", reason: "no sector '\(sector)' is registered")
            }
            try await connection.rows(
                """
                INSERT INTO patient (id, name, date_of_birth, sex, blood_type, sector, bed, range_overrides, uses_spo2_scale2, attributes)
                VALUES (\(patient.id.rawValue), \(patient.name), \(patient.dateOfBirth?.timeIntervalSinceReferenceDate), \(patient.sex.rawValue),
                        \(patient.bloodType.rawValue), \(patient.sector), \(patient.bed), \(patient.rangeOverridesColumn),
                        \(patient.usesSpO2Scale2), \(StoredJSON.encode(patient.attributes)))
                ON CONFLICT (id) DO UPDATE SET
                    name = EXCLUDED.name, date_of_birth = EXCLUDED.date_of_birth, sex = EXCLUDED.sex,
                    blood_type = EXCLUDED.blood_type, sector = EXCLUDED.sector, bed = EXCLUDED.bed,
                    range_overrides = EXCLUDED.range_overrides, uses_spo2_scale2 = EXCLUDED.uses_spo2_scale2,
                    attributes = EXCLUDED.attributes
                """, database)
        }
    }

    /// Adds or replaces a health-care worker with their sector assignments.
    ///
    /// - Throws: ``HealthError/invalidValue(field:reason:)`` naming `sectors` when one is not registered.
    public func save(_ worker: HealthCareWorker) async throws(HealthError) {
        try worker.validate()
        try await write { [database] connection in
            for sector in worker.sectors.sorted() where try await !Self.exists("sector", sector, connection, database) {
                throw HealthError.invalidValue(field: "sectors", reason: "no sector '\(sector)' is registered")
            }
            try await connection.rows(
                """
                INSERT INTO worker (id, name, role, licence, email, phone, on_duty)
                VALUES (\(worker.id), \(worker.name), \(worker.role.rawValue), \(worker.licence), \(worker.email), \(worker.phone), \(worker.onDuty))
                ON CONFLICT (id) DO UPDATE SET
                    name = EXCLUDED.name, role = EXCLUDED.role, licence = EXCLUDED.licence, email = EXCLUDED.email,
                    phone = EXCLUDED.phone, on_duty = EXCLUDED.on_duty
                """, database)
            try await connection.rows("DELETE FROM worker_sector WHERE worker = \(worker.id)", database)
            for sector in worker.sectors.sorted() {
                try await connection.rows("INSERT INTO worker_sector (worker, sector) VALUES (\(worker.id), \(sector))", database)
            }
        }
    }

    /// Every hospital, by name.
    public func hospitals() async throws(HealthError) -> [Hospital] {
        try await read(#"SELECT id, name, address FROM hospital ORDER BY name COLLATE "C", id COLLATE "C""#) { row in
            let (id, name, address) = try row.decode((String, String, String?).self)
            return Hospital(id: id, name: name, address: address)
        }
    }

    /// The sectors of `hospital` (every sector when `nil`), by name.
    public func sectors(of hospital: HospitalID?) async throws(HealthError) -> [HospitalSector] {
        if let hospital { try HealthText.validateIdentifier(hospital, field: "hospital") }
        return try await read(
            """
            SELECT id, hospital, name, mailing_list FROM sector
            WHERE \(hospital)::TEXT IS NULL OR hospital = \(hospital) ORDER BY name COLLATE "C", id COLLATE "C"
            """
        ) { row in
            let (id, hospital, name, mailingList) = try row.decode((String, String, String, String).self)
            return HospitalSector(id: id, hospital: hospital, name: name, mailingList: try StoredJSON.decode([String].self, mailingList))
        }
    }

    /// The patient, if registered.
    public func patient(_ id: PatientID) async throws(HealthError) -> Patient? {
        try id.validate()
        return try await read(PostgresQuery(unsafeSQL: "SELECT \(Self.patientColumns) FROM patient WHERE id = $1", binds: Self.binds(id.rawValue)), Self.patient)
            .first
    }

    /// The known patients among `ids`, in one query.
    public func patients(_ ids: Set<PatientID>) async throws(HealthError) -> [PatientID: Patient] {
        for id in ids { try id.validate() }
        guard !ids.isEmpty else { return [:] }
        var binds = PostgresBindings()
        binds.append(ids.map(\.rawValue).sorted())
        let patients = try await read(PostgresQuery(unsafeSQL: "SELECT \(Self.patientColumns) FROM patient WHERE id = ANY($1)", binds: binds), Self.patient)
        return Dictionary(patients.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The patients interned in `sector` (every patient when `nil`), by name.
    public func patients(in sector: SectorID?) async throws(HealthError) -> [Patient] {
        if let sector { try HealthText.validateIdentifier(sector, field: "sector") }
        return try await read(
            PostgresQuery(
                unsafeSQL: #"SELECT \#(Self.patientColumns) FROM patient WHERE $1::TEXT IS NULL OR sector = $1 ORDER BY name COLLATE "C", id COLLATE "C""#,
                binds: Self.binds(sector)), Self.patient)
    }

    /// The worker, if registered.
    public func worker(_ id: StaffID) async throws(HealthError) -> HealthCareWorker? {
        try HealthText.validateIdentifier(id, field: "worker")
        return try await read { [database] connection in
            guard let row = try await connection.rows(
                PostgresQuery(unsafeSQL: "SELECT \(Self.workerColumns) FROM worker WHERE id = $1", binds: Self.binds(id)), database).first
            else { return nil }
            return try await Self.worker(row, connection, database)
        }
    }

    /// The workers assigned to `sector` (every worker when `nil`), by name.
    public func workers(in sector: SectorID?) async throws(HealthError) -> [HealthCareWorker] {
        if let sector { try HealthText.validateIdentifier(sector, field: "sector") }
        // Each worker with their sectors, in one statement.
        return try await read(
            PostgresQuery(
                unsafeSQL: """
                    SELECT \(Self.workerColumns), ARRAY(SELECT sector FROM worker_sector WHERE worker_sector.worker = w.id ORDER BY sector) FROM worker AS w
                    WHERE $1::TEXT IS NULL OR id IN (SELECT worker FROM worker_sector WHERE sector = $1) ORDER BY name COLLATE "C", id COLLATE "C"
                    """, binds: Self.binds(sector))
        ) { row in
            let (id, name, role, licence, email, phone, onDuty, sectors) = try row.decode(
                (String, String, String, String?, String?, String?, Bool, [String]).self)
            return try Self.worker(id: id, name: name, role: role, licence: licence, email: email, phone: phone, onDuty: onDuty, sectors: Set(sectors))
        }
    }

    /// Interns a registered patient in a registered sector, in `bed`.
    ///
    /// - Throws: ``HealthError/notFound(_:)`` for an unknown patient or sector.
    public func admit(_ patient: PatientID, to sector: SectorID, bed: String?) async throws(HealthError) {
        try patient.validate()
        try HealthText.validateIdentifier(sector, field: "sector")
        try HealthText.validateFreeText(bed, field: "bed")
        try await write { [database] connection in
            guard try await Self.exists("patient", patient.rawValue, connection, database) else { throw HealthError.notFound("patient \(patient)") }
            guard try await Self.exists("sector", sector, connection, database) else { throw HealthError.notFound("sector \(sector)") }
            try await connection.rows("UPDATE patient SET sector = \(sector), bed = \(bed) WHERE id = \(patient.rawValue)", database)
        }
    }

    /// Ends a patient's stay: no sector, no bed.
    ///
    /// - Throws: ``HealthError/notFound(_:)`` for an unknown patient.
    public func discharge(_ patient: PatientID) async throws(HealthError) {
        try patient.validate()
        try await write { [database] connection in
            let updated = try await connection.rows(
                "UPDATE patient SET sector = NULL, bed = NULL WHERE id = \(patient.rawValue) RETURNING id", database)
            guard !updated.isEmpty else { throw HealthError.notFound("patient \(patient)") }
        }
    }

    /// Removes a patient and every sample about them, in one transaction; each deleted
    /// sample shows in anchored queries.
    ///
    /// - Throws: ``HealthError/notFound(_:)`` when there is neither such a patient nor a sample about them.
    public func remove(_ patient: PatientID) async throws(HealthError) {
        try patient.validate()
        try await write { [database] connection in
            try await PostgresSampleDeletion.lockCounter(connection, database)
            let samples = try await PostgresSampleDeletion.delete(patient: patient, connection, database)
            let removed = try await connection.rows("DELETE FROM patient WHERE id = \(patient.rawValue) RETURNING id", database)
            guard !removed.isEmpty || samples > 0 else { throw HealthError.notFound("patient \(patient)") }
        }
    }

    // MARK: Rows

    private static let patientColumns = "id, name, date_of_birth, sex, blood_type, sector, bed, range_overrides, uses_spo2_scale2, attributes"
    private static let workerColumns = "id, name, role, licence, email, phone, on_duty"

    private static func binds(_ value: String?) -> PostgresBindings {
        var binds = PostgresBindings()
        binds.append(value)
        return binds
    }

    /// Whether a row with `id` is in `table`.
    private static func exists(_ table: String, _ id: String, _ connection: PostgresConnection, _ database: PostgresPool) async throws -> Bool {
        try await !connection.rows(PostgresQuery(unsafeSQL: "SELECT 1 FROM \(table) WHERE id = $1", binds: binds(id)), database).isEmpty
    }

    private static func patient(_ row: PostgresRow) throws -> Patient {
        let (id, name, dateOfBirth, sex, bloodType, sector, bed, overrides, usesScale2, attributes) = try row.decode(
            (String, String, Double?, String, String, String?, String?, String, Bool, String).self)
        guard let sex = BiologicalSex(rawValue: sex), let bloodType = BloodType(rawValue: bloodType) else {
            throw HealthError.storage("patient \(id) has an unknown sex or blood type")
        }
        return Patient(
            id: PatientID(rawValue: id), name: name, dateOfBirth: dateOfBirth.map(Date.init(timeIntervalSinceReferenceDate:)),
            sex: sex, bloodType: bloodType, sector: sector, bed: bed, rangeOverrides: try Patient.rangeOverrides(overrides, of: id),
            usesSpO2Scale2: usesScale2, attributes: try StoredJSON.decode([String: String].self, attributes))
    }

    /// A worker from its row; its sectors are read from `worker_sector`.
    private static func worker(_ row: PostgresRow, _ connection: PostgresConnection, _ database: PostgresPool) async throws -> HealthCareWorker {
        let (id, name, role, licence, email, phone, onDuty) = try row.decode((String, String, String, String?, String?, String?, Bool).self)
        let sectors = Set(try await connection.rows("SELECT sector FROM worker_sector WHERE worker = \(id)", database).map { try $0.decode(String.self) })
        return try worker(id: id, name: name, role: role, licence: licence, email: email, phone: phone, onDuty: onDuty, sectors: sectors)
    }

    /// A worker from its columns.
    private static func worker(
        id: String, name: String, role: String, licence: String?, email: String?, phone: String?, onDuty: Bool, sectors: Set<SectorID>
    ) throws -> HealthCareWorker {
        guard let role = HealthCareWorker.Role(rawValue: role) else { throw HealthError.storage("worker \(id) has an unknown role") }
        return HealthCareWorker(id: id, name: name, role: role, licence: licence, email: email, phone: phone, sectors: sectors, onDuty: onDuty)
    }
}
