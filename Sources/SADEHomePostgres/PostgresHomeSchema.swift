import SADEPostgres

/// The home store's tables in PostgreSQL: the SQLite schema's, prefixed `home_` (one
/// database holds every store's tables). Times are integer milliseconds since 1970.
enum PostgresHomeSchema {
    /// Every migration, in order.
    static let migrations: [PostgresPool.Migration] = [
        .init(
            "v1-flats",
            """
            CREATE TABLE home_flat (
                id BIGSERIAL PRIMARY KEY, name TEXT NOT NULL, resident TEXT, carers TEXT NOT NULL,
                time_zone TEXT NOT NULL, inactivity TEXT NOT NULL);
            CREATE TABLE home_room (
                id BIGSERIAL PRIMARY KEY, flat BIGINT NOT NULL REFERENCES home_flat(id) ON DELETE CASCADE,
                name TEXT NOT NULL, type TEXT NOT NULL, polygon TEXT NOT NULL, doors TEXT NOT NULL);
            CREATE INDEX home_room_flat ON home_room(flat);
            CREATE TABLE home_device (
                id BIGSERIAL PRIMARY KEY, flat BIGINT NOT NULL REFERENCES home_flat(id) ON DELETE CASCADE,
                room BIGINT NOT NULL REFERENCES home_room(id), name TEXT NOT NULL, object_id TEXT NOT NULL,
                kind TEXT NOT NULL, category TEXT NOT NULL, unit TEXT NOT NULL, domain TEXT NOT NULL, device_class TEXT,
                is_generation BOOLEAN NOT NULL, is_activity BOOLEAN NOT NULL,
                x DOUBLE PRECISION NOT NULL, y DOUBLE PRECISION NOT NULL, battery_powered BOOLEAN NOT NULL,
                UNIQUE (flat, object_id));
            CREATE INDEX home_device_flat ON home_device(flat);
            """),
        .init(
            "v1-events",
            """
            CREATE TABLE home_event (
                seq BIGSERIAL PRIMARY KEY, device BIGINT NOT NULL, flat BIGINT NOT NULL, value DOUBLE PRECISION NOT NULL,
                battery INTEGER, time BIGINT NOT NULL, activity BOOLEAN NOT NULL);
            CREATE INDEX home_event_device_time ON home_event(device, time);
            CREATE INDEX home_event_activity ON home_event(flat, time) WHERE activity;
            CREATE INDEX home_event_time ON home_event(time);
            CREATE TABLE home_device_latest (
                device BIGINT PRIMARY KEY, value DOUBLE PRECISION NOT NULL, battery INTEGER, time BIGINT NOT NULL,
                last_changed BIGINT NOT NULL, last_battery INTEGER);
            CREATE TABLE home_statistics_hourly (
                device BIGINT NOT NULL, hour BIGINT NOT NULL, count BIGINT NOT NULL, sum DOUBLE PRECISION NOT NULL,
                min DOUBLE PRECISION NOT NULL, max DOUBLE PRECISION NOT NULL, first_value DOUBLE PRECISION NOT NULL,
                first_time BIGINT NOT NULL, last_value DOUBLE PRECISION NOT NULL, last_time BIGINT NOT NULL,
                PRIMARY KEY (device, hour));
            CREATE TABLE home_occupancy (flat BIGINT PRIMARY KEY, room BIGINT NOT NULL, previous_room BIGINT, since BIGINT NOT NULL);
            """),
        .init(
            "v1-messages",
            """
            CREATE TABLE home_message (
                id BIGSERIAL PRIMARY KEY, flat BIGINT NOT NULL, device BIGINT, severity TEXT NOT NULL,
                title TEXT NOT NULL, text TEXT NOT NULL, key TEXT NOT NULL, raised_at BIGINT NOT NULL,
                expires_at BIGINT, state TEXT NOT NULL, confirmed_by TEXT, confirmed_at BIGINT, notice TEXT);
            CREATE UNIQUE INDEX home_message_open_key ON home_message(flat, key) WHERE state = 'open';
            CREATE INDEX home_message_flat_raised ON home_message(flat, raised_at);
            CREATE INDEX home_message_open_expiry ON home_message(expires_at) WHERE state = 'open';
            """),
    ]
}
