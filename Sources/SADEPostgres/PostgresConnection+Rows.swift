import PostgresNIO

extension PostgresConnection {
    /// Runs `query` on this connection (one a pool lent, in ``PostgresPool/transaction(_:_:)``)
    /// and collects its rows, logging with the pool's logger.
    @discardableResult
    public func rows(_ query: PostgresQuery, _ pool: PostgresPool) async throws -> [PostgresRow] {
        try await self.query(query, logger: pool.logger).collect()
    }
}
