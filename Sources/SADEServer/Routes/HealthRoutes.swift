import Hummingbird

extension MonitoringServer {
    /// `GET /health`: whether the server and its database answer.
    func addHealthRoutes(to router: Router<MonitoringRequestContext>) {
        router.get("health") { _, _ -> Response in
            struct Health: Encodable {
                let status: String
                let accounts: Int
            }
            return try await JSONBody.response(Health(status: "ok", accounts: try system.accounts.count()))
        }
    }
}
