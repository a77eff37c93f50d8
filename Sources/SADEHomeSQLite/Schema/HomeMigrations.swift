import GRDB

/// The schema of a home database, built only through named migrations. Times are
/// integer milliseconds since 1970 (what gateways and the thesis's requests use).
enum HomeMigrations {
    /// Every migration, in order.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-flats", migrate: createFlats)
        migrator.registerMigration("v1-events", migrate: createEvents)
        migrator.registerMigration("v1-messages", migrate: createMessages)
        return migrator
    }

    /// Flats, their rooms (polygons and doors as JSON) and devices with their kind spelled out,
    /// so that an application's own kinds read back without a registry.
    private static func createFlats(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE flat (
                id INTEGER PRIMARY KEY, name TEXT NOT NULL, resident TEXT, carers TEXT NOT NULL,
                time_zone TEXT NOT NULL, inactivity TEXT NOT NULL);
            CREATE TABLE room (
                id INTEGER PRIMARY KEY, flat INTEGER NOT NULL REFERENCES flat(id) ON DELETE CASCADE,
                name TEXT NOT NULL, type TEXT NOT NULL, polygon TEXT NOT NULL, doors TEXT NOT NULL);
            CREATE INDEX room_flat ON room(flat);
            CREATE TABLE device (
                id INTEGER PRIMARY KEY, flat INTEGER NOT NULL REFERENCES flat(id) ON DELETE CASCADE,
                room INTEGER NOT NULL REFERENCES room(id), name TEXT NOT NULL, object_id TEXT NOT NULL,
                kind TEXT NOT NULL, category TEXT NOT NULL, unit TEXT NOT NULL, domain TEXT NOT NULL, device_class TEXT,
                is_generation INTEGER NOT NULL, is_activity INTEGER NOT NULL,
                x REAL NOT NULL, y REAL NOT NULL, battery_powered INTEGER NOT NULL,
                UNIQUE (flat, object_id));
            """)
    }

    /// Events; each device's latest state; hourly statistics kept as events arrive
    /// (Home Assistant's recorder compiles the same); where the resident is.
    private static func createEvents(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE event (
                seq INTEGER PRIMARY KEY, device INTEGER NOT NULL, flat INTEGER NOT NULL, value REAL NOT NULL,
                battery INTEGER, time INTEGER NOT NULL, activity INTEGER NOT NULL);
            CREATE INDEX event_device_time ON event(device, time);
            CREATE INDEX event_activity ON event(flat, time) WHERE activity = 1;
            CREATE INDEX event_time ON event(time);
            CREATE TABLE device_latest (
                device INTEGER PRIMARY KEY, value REAL NOT NULL, battery INTEGER, time INTEGER NOT NULL,
                last_changed INTEGER NOT NULL, last_battery INTEGER);
            CREATE TABLE statistics_hourly (
                device INTEGER NOT NULL, hour INTEGER NOT NULL, count INTEGER NOT NULL, sum REAL NOT NULL,
                min REAL NOT NULL, max REAL NOT NULL, first_value REAL NOT NULL, first_time INTEGER NOT NULL,
                last_value REAL NOT NULL, last_time INTEGER NOT NULL,
                PRIMARY KEY (device, hour)) WITHOUT ROWID;
            CREATE TABLE occupancy (flat INTEGER PRIMARY KEY, room INTEGER NOT NULL, previous_room INTEGER, since INTEGER NOT NULL);
            """)
    }

    /// Home messages: at most one open message per flat and key.
    private static func createMessages(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE message (
                id INTEGER PRIMARY KEY, flat INTEGER NOT NULL, device INTEGER, severity TEXT NOT NULL,
                title TEXT NOT NULL, text TEXT NOT NULL, key TEXT NOT NULL, raised_at INTEGER NOT NULL,
                expires_at INTEGER, state TEXT NOT NULL, confirmed_by TEXT, confirmed_at INTEGER, notice TEXT);
            CREATE UNIQUE INDEX message_open_key ON message(flat, key) WHERE state = 'open';
            CREATE INDEX message_flat_raised ON message(flat, raised_at);
            CREATE INDEX message_open_expiry ON message(expires_at) WHERE state = 'open';
            """)
    }
}
