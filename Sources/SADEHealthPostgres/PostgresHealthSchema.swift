import SADEPostgres

/// The schema of the health store on PostgreSQL: the SQLite store's tables, with
/// PostgreSQL's types, and a one-row `change_counter` in place of SQLite's largest
/// row id.
///
/// Times are seconds since Foundation's reference date as `DOUBLE PRECISION`, the
/// number a `Date` holds, so every date reads back exactly as it was saved.
enum PostgresHealthSchema {
    /// The migrations, recorded under the store name `health`.
    static let migrations: [PostgresPool.Migration] = [
        .init(
            "v1-samples",
            """
            -- Every addition and deletion takes the next numbers from this row. A writer holds
            -- the row's lock from taking its numbers until it commits, so numbers become visible
            -- in order: a reader that sees change n has seen every change before n (the promise
            -- anchored queries rest on), on any node.
            CREATE TABLE change_counter (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                last BIGINT NOT NULL
            );
            INSERT INTO change_counter (id, last) VALUES (1, 0);

            CREATE TABLE sample (
                change_number BIGINT PRIMARY KEY,
                uuid UUID NOT NULL UNIQUE,
                patient TEXT NOT NULL,
                type TEXT NOT NULL,
                value DOUBLE PRECISION,
                unit TEXT,
                original_value DOUBLE PRECISION,
                start DOUBLE PRECISION NOT NULL,
                "end" DOUBLE PRECISION NOT NULL,
                device TEXT,
                source TEXT,
                metadata TEXT,
                correlation BIGINT REFERENCES sample(change_number) ON DELETE CASCADE
            );
            CREATE INDEX sample_by_patient_type_start ON sample(patient, type, start);
            CREATE INDEX sample_by_type_start ON sample(type, start);
            CREATE INDEX sample_by_correlation ON sample(correlation) WHERE correlation IS NOT NULL;

            CREATE TABLE electrocardiogram (
                sample BIGINT PRIMARY KEY REFERENCES sample(change_number) ON DELETE CASCADE,
                sampling_frequency DOUBLE PRECISION NOT NULL,
                lead TEXT NOT NULL,
                unit TEXT NOT NULL,
                voltage_count INTEGER NOT NULL,
                average_heart_rate DOUBLE PRECISION
            );
            CREATE TABLE electrocardiogram_chunk (
                sample BIGINT NOT NULL REFERENCES electrocardiogram(sample) ON DELETE CASCADE,
                chunk INTEGER NOT NULL,
                voltages BYTEA NOT NULL,
                PRIMARY KEY (sample, chunk)
            );

            CREATE TABLE tombstone (
                change_number BIGINT PRIMARY KEY,
                uuid UUID NOT NULL,
                patient TEXT NOT NULL,
                type TEXT NOT NULL
            );
            CREATE INDEX tombstone_by_type ON tombstone(type, patient);
            """),
        .init(
            "v1-clinical",
            """
            CREATE TABLE hospital (
                id TEXT PRIMARY KEY,
                name TEXT NOT NULL,
                address TEXT
            );
            CREATE TABLE sector (
                id TEXT PRIMARY KEY,
                hospital TEXT NOT NULL REFERENCES hospital(id) ON DELETE CASCADE,
                name TEXT NOT NULL,
                mailing_list TEXT NOT NULL
            );
            CREATE INDEX sector_by_hospital ON sector(hospital);
            CREATE TABLE patient (
                id TEXT PRIMARY KEY,
                name TEXT NOT NULL,
                date_of_birth DOUBLE PRECISION,
                sex TEXT NOT NULL,
                blood_type TEXT NOT NULL,
                sector TEXT REFERENCES sector(id) ON DELETE SET NULL,
                bed TEXT,
                range_overrides TEXT NOT NULL,
                uses_spo2_scale2 BOOLEAN NOT NULL,
                attributes TEXT NOT NULL
            );
            CREATE INDEX patient_by_sector ON patient(sector);
            CREATE TABLE worker (
                id TEXT PRIMARY KEY,
                name TEXT NOT NULL,
                role TEXT NOT NULL,
                licence TEXT,
                email TEXT,
                phone TEXT,
                on_duty BOOLEAN NOT NULL
            );
            CREATE TABLE worker_sector (
                worker TEXT NOT NULL REFERENCES worker(id) ON DELETE CASCADE,
                sector TEXT NOT NULL REFERENCES sector(id) ON DELETE CASCADE,
                PRIMARY KEY (worker, sector)
            );
            CREATE INDEX worker_sector_by_sector ON worker_sector(sector);
            """),
        .init(
            "v1-authorization",
            """
            CREATE TABLE access_grant (
                id BIGSERIAL PRIMARY KEY,
                principal_kind TEXT NOT NULL,
                principal_name TEXT NOT NULL,
                access TEXT NOT NULL,
                types TEXT,
                patients TEXT
            );
            CREATE UNIQUE INDEX access_grant_unique
                ON access_grant(principal_kind, principal_name, access, COALESCE(types, '*'), COALESCE(patients, '*'));
            """),
        // The pipeline's reads, a type's changes since its anchor: without it PostgreSQL
        // took `sample_by_type_start` and filtered every sample of the type (65–85 ms a
        // read once a few hundred thousand samples were stored, most of the database's time).
        .init("v2-sample-changes-by-type", "CREATE INDEX sample_by_type_change ON sample(type, change_number);"),
    ]
}
