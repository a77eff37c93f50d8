import GRDB

/// The schema of a health database, built only through these named migrations: a
/// database opened again runs only the ones it has not seen.
///
/// Times are seconds since Foundation's reference date (2001-01-01 UTC), the
/// number a `Date` holds, so every date reads back exactly as it was saved.
enum HealthMigrations {
    /// Every migration, in order.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-samples", migrate: createSamples)
        migrator.registerMigration("v1-clinical", migrate: createClinicalRegistry)
        migrator.registerMigration("v1-authorization", migrate: createAuthorization)
        return migrator
    }

    /// Samples, correlation members, ECG waveforms in chunks, and tombstones of
    /// deleted samples for anchored queries.
    private static func createSamples(_ db: Database) throws {
        // `change_number` is both the row id and the sample's place in the history of
        // changes: it is taken from one counter shared with the tombstones (the largest
        // number in either table), so an anchored query is a range scan of the rowid.
        try db.execute(
            sql: """
                CREATE TABLE sample (
                    change_number INTEGER PRIMARY KEY,
                    uuid BLOB NOT NULL UNIQUE,
                    patient TEXT NOT NULL,
                    type TEXT NOT NULL,
                    value REAL,
                    unit TEXT,
                    original_value REAL,
                    start REAL NOT NULL,
                    "end" REAL NOT NULL,
                    device TEXT,
                    source TEXT,
                    metadata TEXT,
                    correlation INTEGER REFERENCES sample(change_number) ON DELETE CASCADE
                );
                CREATE INDEX sample_by_patient_type_start ON sample(patient, type, start);
                CREATE INDEX sample_by_type_start ON sample(type, start);
                CREATE INDEX sample_by_correlation ON sample(correlation) WHERE correlation IS NOT NULL;

                CREATE TABLE electrocardiogram (
                    sample INTEGER PRIMARY KEY REFERENCES sample(change_number) ON DELETE CASCADE,
                    sampling_frequency REAL NOT NULL,
                    lead TEXT NOT NULL,
                    unit TEXT NOT NULL,
                    voltage_count INTEGER NOT NULL,
                    average_heart_rate REAL
                );
                CREATE TABLE electrocardiogram_chunk (
                    sample INTEGER NOT NULL REFERENCES electrocardiogram(sample) ON DELETE CASCADE,
                    chunk INTEGER NOT NULL,
                    voltages BLOB NOT NULL,
                    PRIMARY KEY (sample, chunk)
                ) WITHOUT ROWID;

                CREATE TABLE tombstone (
                    change_number INTEGER PRIMARY KEY,
                    uuid BLOB NOT NULL,
                    patient TEXT NOT NULL,
                    type TEXT NOT NULL
                );
                CREATE INDEX tombstone_by_type ON tombstone(type, patient);
                """)
    }

    /// Hospitals, their sectors, patients and staff with the sectors they work in.
    private static func createClinicalRegistry(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE hospital (
                    id TEXT PRIMARY KEY NOT NULL,
                    name TEXT NOT NULL,
                    address TEXT
                );
                CREATE TABLE sector (
                    id TEXT PRIMARY KEY NOT NULL,
                    hospital TEXT NOT NULL REFERENCES hospital(id) ON DELETE CASCADE,
                    name TEXT NOT NULL,
                    mailing_list TEXT NOT NULL
                );
                CREATE INDEX sector_by_hospital ON sector(hospital);
                CREATE TABLE patient (
                    id TEXT PRIMARY KEY NOT NULL,
                    name TEXT NOT NULL,
                    date_of_birth REAL,
                    sex TEXT NOT NULL,
                    blood_type TEXT NOT NULL,
                    sector TEXT REFERENCES sector(id) ON DELETE SET NULL,
                    bed TEXT,
                    range_overrides TEXT NOT NULL,
                    uses_spo2_scale2 INTEGER NOT NULL,
                    attributes TEXT NOT NULL
                );
                CREATE INDEX patient_by_sector ON patient(sector);
                CREATE TABLE worker (
                    id TEXT PRIMARY KEY NOT NULL,
                    name TEXT NOT NULL,
                    role TEXT NOT NULL,
                    licence TEXT,
                    email TEXT,
                    phone TEXT,
                    on_duty INTEGER NOT NULL
                );
                CREATE TABLE worker_sector (
                    worker TEXT NOT NULL REFERENCES worker(id) ON DELETE CASCADE,
                    sector TEXT NOT NULL REFERENCES sector(id) ON DELETE CASCADE,
                    PRIMARY KEY (worker, sector)
                ) WITHOUT ROWID;
                CREATE INDEX worker_sector_by_sector ON worker_sector(sector);
                """)
    }

    /// Who may read or share which types of which patients. `types` and `patients`
    /// are sorted JSON arrays, NULL for "all", so equal grants are one row.
    private static func createAuthorization(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE access_grant (
                    id INTEGER PRIMARY KEY,
                    principal_kind TEXT NOT NULL,
                    principal_name TEXT NOT NULL,
                    access TEXT NOT NULL,
                    types TEXT,
                    patients TEXT
                );
                CREATE UNIQUE INDEX access_grant_unique
                    ON access_grant(principal_kind, principal_name, access, IFNULL(types, '*'), IFNULL(patients, '*'));
                """)
    }
}
