// Placeholder until the SQLite home store lands (removed then).
